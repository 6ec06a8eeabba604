#include "core/tool_registry.hpp"

namespace nib::core {
namespace {

struct Origin {
  const char* group;
  std::size_t position;  // 1-based within its group
};

std::string describe(const Origin& origin) {
  return std::string(origin.group) + " #" + std::to_string(origin.position);
}

}  // namespace

std::unique_ptr<ToolRegistry> ToolRegistry::create(std::vector<ToolPtr> builtin,
                                                   std::vector<ToolPtr> extra, std::string& error) {
  std::unique_ptr<ToolRegistry> registry(new ToolRegistry());
  std::map<std::string, Origin> origins;
  const std::pair<const char*, std::vector<ToolPtr>*> groups[] = {{"built-in tool", &builtin},
                                                                  {"extra tool", &extra}};
  for (const auto& [group, tools] : groups) {
    for (std::size_t i = 0; i < tools->size(); ++i) {
      ToolPtr& tool = (*tools)[i];
      const Origin origin{group, i + 1};
      if (!tool) {
        error = describe(origin) + " is null";
        return nullptr;
      }
      const std::string& name = tool->name();
      if (name.empty()) {
        error = describe(origin) + " has an empty name";
        return nullptr;
      }
      if (const auto seen = origins.find(name); seen != origins.end()) {
        error = "tool name \"" + name + "\" is registered twice: by " + describe(seen->second) +
                " and by " + describe(origin) + "; each tool needs a unique name";
        return nullptr;
      }
      std::string schema_error;
      auto schema = CompiledSchema::compile(tool->spec().parameters, schema_error);
      if (!schema) {
        error = "tool \"" + name + "\" (" + describe(origin) +
                ") has invalid parameters schema: " + schema_error;
        return nullptr;
      }
      origins.emplace(name, origin);
      registry->order_.push_back(name);
      registry->tools_.emplace(name, RegisteredTool{std::move(tool), std::move(schema)});
    }
  }
  return registry;
}

const RegisteredTool* ToolRegistry::find(const std::string& name) const {
  const auto it = tools_.find(name);
  return it == tools_.end() ? nullptr : &it->second;
}

std::vector<ToolSpec> ToolRegistry::specs() const {
  std::vector<ToolSpec> specs;
  for (const auto& name : order_) specs.push_back(tools_.at(name).tool->spec());
  return specs;
}

std::vector<std::string> ToolRegistry::names() const {
  return order_;
}

}  // namespace nib::core
