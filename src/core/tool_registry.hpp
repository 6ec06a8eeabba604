#pragma once
// The set of tools available to one run: looked up by name, each with its compiled argument
// schema. It only grows: tools that arrive during a run (an MCP server that became ready) are
// added between requests and offered from the next one on, and a tool once registered stays, so
// a RegisteredTool pointer stays valid for the registry's life. Thread-safe: add() and set_note()
// may run on any thread while others look tools up.
//
// The tools are offered in one order whatever the order they arrived in, so that the request
// prefix the services cache stays the same: the built-in tools as registered, then the added
// tools by name, then the tools tool_search loaded, in the order it loaded them. Once the added
// tools' schemas come to more than the deferral threshold, they are no longer listed: the
// tool_search tool (kToolSearchToolName) joins the list, and each added tool is offered from
// the request after a search found it (every added tool can be called by name all along).

#include <functional>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/schema_validator.hpp"
#include "core/tool.hpp"
#include "util/result.hpp"

namespace nib::core {

// The tool that finds the added tools a registry no longer lists.
inline constexpr std::string_view kToolSearchToolName = "tool_search";

struct RegisteredTool {
  ToolPtr tool;
  // The argument schema as validated and as offered to the model: the tool's own, closed to
  // unknown fields for a built-in tool (tool_registry.cpp says why).
  nlohmann::json parameters;
  std::unique_ptr<CompiledSchema> schema;
  std::string origin;  // "built-in tool #3", for the message about a duplicate name
};

class ToolRegistry {
 public:
  // Registers the built-in tools, then the extra tools handed in by embedding code. Refuses a
  // duplicate name (naming both registrations) and a parameters document that is not a valid
  // JSON Schema. A built-in tool's arguments may hold only the fields its schema lists; extra
  // and added tools (MCP servers') keep their schemas as written.
  static util::Result<std::unique_ptr<ToolRegistry>> create(std::vector<ToolPtr> builtin,
                                                            std::vector<ToolPtr> extra);

  // The tool registered under `name`, or nullptr.
  const RegisteredTool* find(const std::string& name) const;
  // The specs sent to a model that edits in `model_style` (offered_to), in registration order,
  // with the parameters as registered.
  std::vector<ToolSpec> specs(EditStyle model_style = EditStyle::kAny) const;
  // The names of those tools in registration order, for "available tools" messages.
  std::vector<std::string> names(EditStyle model_style = EditStyle::kAny) const;

  // Adds a tool after creation; refused, with the reason, for a duplicate name or a parameters
  // document that is not a valid JSON Schema (the registry is unchanged then).
  util::Status add(ToolPtr tool);

  // Added tools whose schemas come to more than `bytes` in all are offered through tool_search
  // (see above). Set before tools are added; none by default.
  void defer_added_tools_over(std::size_t bytes);
  // How the added tools are offered, for /mcp.
  struct Deferral {
    bool active = false;        // they are offered through tool_search
    std::size_t threshold = 0;  // bytes; 0: never
    std::size_t added_bytes = 0;
    std::size_t deferred = 0;  // added tools not yet loaded
    std::size_t loaded = 0;
  };
  Deferral deferral() const;
  // The added tools not listed yet whose name or description hold the most of `query`'s words
  // (or, for "select:a,b", those named), best first, at most `limit`; each is listed from the
  // next request on.
  std::vector<ToolSpec> load_deferred(const std::string& query, std::size_t limit);

  // Called when a call names a tool that is not registered: may block until such a tool could
  // have arrived (its MCP server was still connecting) and returns true when it is worth
  // looking again. Set it before the run starts; it must not call back into the registry's
  // awaiter setter.
  using Awaiter = std::function<bool(const std::string& name)>;
  void set_awaiter(Awaiter awaiter);
  // find(), but a miss first asks the awaiter (see above).
  const RegisteredTool* find_or_await(const std::string& name) const;

  // A short note on tools that are not (yet) here, e.g. MCP servers still connecting or failed,
  // which the loop tells the model whenever it changes (AgentLoop) so that it is told rather
  // than finding them missing; "" for none.
  void set_note(std::string note);
  std::string note() const;

 private:
  ToolRegistry() = default;
  // Which list a tool joins: built-in and extra tools keep their registration order, added
  // tools are kept by name (see above).
  enum class Group { kBuiltin, kExtra, kAdded };
  // Registers `tool` (the caller holds the lock); the reason it cannot be, naming `origin`. A
  // built-in tool's arguments object is closed to fields its schema does not list.
  util::Status insert(ToolPtr tool, const std::string& origin, Group group);

  // Whether `name`, an added tool, is listed (the caller holds the lock).
  bool listed(const std::string& name) const;

  mutable std::shared_mutex mutex_;
  std::string note_;
  Awaiter awaiter_;
  std::vector<std::string> order_;    // the built-in and extra tools, as registered
  std::vector<std::string> added_;    // the added tools, by name
  std::vector<std::string> loaded_;   // added tools tool_search loaded, in that order
  std::size_t defer_over_bytes_ = 0;  // 0: never defer
  std::size_t added_bytes_ = 0;       // the added tools' schemas
  bool deferring_ = false;
  std::map<std::string, RegisteredTool> tools_;
};

}  // namespace nib::core
