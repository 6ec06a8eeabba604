#pragma once
// The set of tools available to one run: looked up by name, each with its compiled argument
// schema. Immutable once created, so lookups are safe from any thread.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/schema_validator.hpp"
#include "core/tool.hpp"
#include "util/result.hpp"

namespace nib::core {

struct RegisteredTool {
  ToolPtr tool;
  std::unique_ptr<CompiledSchema> schema;
};

class ToolRegistry {
 public:
  // Registers the built-in tools, then the extra tools handed in by embedding code. Refuses a
  // duplicate name (naming both registrations) and a parameters document that is not a valid
  // JSON Schema.
  static util::Result<std::unique_ptr<ToolRegistry>> create(std::vector<ToolPtr> builtin,
                                                            std::vector<ToolPtr> extra);

  // The tool registered under `name`, or nullptr.
  const RegisteredTool* find(const std::string& name) const;
  // The specs sent to the model, in registration order.
  std::vector<ToolSpec> specs() const;
  // Registered names in registration order, for "available tools" messages.
  std::vector<std::string> names() const;

 private:
  ToolRegistry() = default;
  std::vector<std::string> order_;
  std::map<std::string, RegisteredTool> tools_;
};

}  // namespace nib::core
