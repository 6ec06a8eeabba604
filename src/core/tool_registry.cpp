#include "core/tool_registry.hpp"

#include <mutex>

namespace nib::core {
namespace {

// The one policy for fields a built-in tool does not know (docs/tools.md, "Extra fields"): the
// arguments object of every built-in tool is closed (additionalProperties: false), here and not
// in each tool, so a call naming a field the tool does not list is refused before anything
// runs, with an error that names the field and lists the allowed ones (schema_validator's
// "unknown property"). Ignoring such a field would run the call without what the model meant by
// it ("recursive", "case_sensitive", "encoding") and let it believe otherwise; one corrected
// call costs less. Nested objects keep their own schema (todo_write's items accept Claude
// Code's "activeForm"). A schema that lists no properties, or says additionalProperties or
// patternProperties itself, is left as it is; MCP tools keep the schemas their servers wrote.
nlohmann::json closed_to_unknown_fields(nlohmann::json parameters) {
  if (parameters.is_object() && parameters.contains("properties") &&
      !parameters.contains("additionalProperties") && !parameters.contains("patternProperties")) {
    parameters["additionalProperties"] = false;
  }
  return parameters;
}

}  // namespace

util::Result<std::unique_ptr<ToolRegistry>> ToolRegistry::create(std::vector<ToolPtr> builtin,
                                                                 std::vector<ToolPtr> extra) {
  using Result = util::Result<std::unique_ptr<ToolRegistry>>;
  std::unique_ptr<ToolRegistry> registry(new ToolRegistry());
  const std::pair<const char*, std::vector<ToolPtr>*> groups[] = {{"built-in tool", &builtin},
                                                                  {"extra tool", &extra}};
  for (const auto& [group, tools] : groups) {
    for (std::size_t i = 0; i < tools->size(); ++i) {
      const std::string origin = std::string(group) + " #" + std::to_string(i + 1);
      const util::Status added =
          registry->insert(std::move((*tools)[i]), origin, /*builtin=*/tools == &builtin);
      if (!added.ok()) return Result::failure(added.error());
    }
  }
  return registry;
}

util::Status ToolRegistry::insert(ToolPtr tool, const std::string& origin, bool builtin) {
  if (!tool) return util::Status::failure(origin + " is null");
  const std::string& name = tool->name();
  if (name.empty()) return util::Status::failure(origin + " has an empty name");
  if (const auto seen = tools_.find(name); seen != tools_.end()) {
    return util::Status::failure("tool name \"" + name + "\" is registered twice: by " +
                                 seen->second.origin + " and by " + origin +
                                 "; each tool needs a unique name");
  }
  nlohmann::json parameters =
      builtin ? closed_to_unknown_fields(tool->spec().parameters) : tool->spec().parameters;
  auto schema = CompiledSchema::compile(parameters);
  if (!schema.ok()) {
    return util::Status::failure("tool \"" + name + "\" (" + origin +
                                 ") has invalid parameters schema: " + schema.error());
  }
  order_.push_back(name);
  tools_.emplace(name, RegisteredTool{std::move(tool), std::move(parameters),
                                      std::move(schema.value()), origin});
  return util::Status::success();
}

util::Status ToolRegistry::add(ToolPtr tool) {
  std::unique_lock lock(mutex_);
  return insert(std::move(tool), "added tool #" + std::to_string(order_.size() + 1),
                /*builtin=*/false);
}

const RegisteredTool* ToolRegistry::find(const std::string& name) const {
  std::shared_lock lock(mutex_);
  const auto it = tools_.find(name);
  return it == tools_.end() ? nullptr : &it->second;
}

std::vector<ToolSpec> ToolRegistry::specs(EditStyle model_style) const {
  std::shared_lock lock(mutex_);
  std::vector<ToolSpec> specs;
  for (const auto& name : order_) {
    const RegisteredTool& registered = tools_.at(name);
    if (!offered_to(registered.tool->spec(), model_style)) continue;
    specs.push_back(registered.tool->spec());
    specs.back().parameters = registered.parameters;
  }
  return specs;
}

std::vector<std::string> ToolRegistry::names(EditStyle model_style) const {
  std::shared_lock lock(mutex_);
  std::vector<std::string> names;
  for (const auto& name : order_) {
    if (offered_to(tools_.at(name).tool->spec(), model_style)) names.push_back(name);
  }
  return names;
}

void ToolRegistry::set_awaiter(Awaiter awaiter) {
  std::unique_lock lock(mutex_);
  awaiter_ = std::move(awaiter);
}

const RegisteredTool* ToolRegistry::find_or_await(const std::string& name) const {
  if (const RegisteredTool* found = find(name)) return found;
  Awaiter awaiter;
  {
    std::shared_lock lock(mutex_);
    awaiter = awaiter_;
  }
  return awaiter && awaiter(name) ? find(name) : nullptr;
}

void ToolRegistry::set_note(std::string note) {
  std::unique_lock lock(mutex_);
  note_ = std::move(note);
}

std::string ToolRegistry::note() const {
  std::shared_lock lock(mutex_);
  return note_;
}

}  // namespace nib::core
