#pragma once
// JSON Schema validation of tool arguments (valijson), compiled once per tool at registration.
// A compiled schema is immutable; validate() is safe to call from several threads at once.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace nib::core {

struct FieldError {
  std::string path;  // JSON pointer of the offending value ("/path", "/edits/0/oldText"), "" = root
  std::string message;  // what is wrong, for the model
};

class CompiledSchema {
 public:
  // Compiles `schema`; a failure holds valijson's explanation.
  static util::Result<std::unique_ptr<CompiledSchema>> compile(const nlohmann::json& schema);
  ~CompiledSchema();

  // Every leaf error of `instance` against the schema, in document order; empty when valid.
  std::vector<FieldError> validate(const nlohmann::json& instance) const;

 private:
  struct Impl;
  explicit CompiledSchema(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace nib::core
