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

util::Result<std::unique_ptr<ToolRegistry>> ToolRegistry::create(std::vector<ToolPtr> builtin,
                                                                 std::vector<ToolPtr> extra) {
  using Result = util::Result<std::unique_ptr<ToolRegistry>>;
  std::unique_ptr<ToolRegistry> registry(new ToolRegistry());
  std::map<std::string, Origin> origins;
  const std::pair<const char*, std::vector<ToolPtr>*> groups[] = {{"built-in tool", &builtin},
                                                                  {"extra tool", &extra}};
  for (const auto& [group, tools] : groups) {
    for (std::size_t i = 0; i < tools->size(); ++i) {
      ToolPtr& tool = (*tools)[i];
      const Origin origin{group, i + 1};
      if (!tool) return Result::failure(describe(origin) + " is null");
      const std::string& name = tool->name();
      if (name.empty()) return Result::failure(describe(origin) + " has an empty name");
      if (const auto seen = origins.find(name); seen != origins.end()) {
        return Result::failure("tool name \"" + name + "\" is registered twice: by " +
                               describe(seen->second) + " and by " + describe(origin) +
                               "; each tool needs a unique name");
      }
      auto schema = CompiledSchema::compile(tool->spec().parameters);
      if (!schema.ok()) {
        return Result::failure("tool \"" + name + "\" (" + describe(origin) +
                               ") has invalid parameters schema: " + schema.error());
      }
      origins.emplace(name, origin);
      registry->order_.push_back(name);
      registry->tools_.emplace(name, RegisteredTool{std::move(tool), std::move(schema.value())});
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
