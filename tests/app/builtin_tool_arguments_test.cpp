// The one policy for fields a built-in tool does not list (docs/tools.md, "Extra fields"),
// checked on every built-in tool a run can offer, through the path every call takes: the
// run's registry and core::prepare_tool_call. A call that is valid but for one unknown field
// is refused before it runs, and the error names the field and lists the allowed ones.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <variant>

#include <nlohmann/json.hpp>

#include "agent/task_tool.hpp"
#include "core/tool_call.hpp"
#include "core/tool_registry.hpp"
#include "extensions/agent_catalog.hpp"
#include "extensions/agent_definition.hpp"
#include "extensions/skill_tool.hpp"
#include "process/job_table.hpp"
#include "tools/builtin.hpp"

namespace nib::app {
namespace {

using nlohmann::json;

constexpr const char* kUnlistedField = "nib_unlisted_field";

// Every built-in tool: the tools layer's set with background jobs (so the job tools are in it),
// then task and skill, as run_assembly adds them.
std::vector<core::ToolPtr> builtin_tools_for_extra_field_test() {
  tools::BuiltinOptions options;
  options.jobs = std::make_shared<process::JobTable>();
  std::vector<core::ToolPtr> tools = tools::builtin_tools(options);
  auto subagents = std::make_shared<agent::SubagentEnvironment>();
  subagents->agents = std::make_shared<const extensions::AgentCatalog>(
      extensions::AgentCatalog{extensions::builtin_agents(), {}});
  tools.push_back(agent::make_task_tool(subagents, 0, std::nullopt));
  tools.push_back(extensions::make_skill_tool(std::make_shared<const extensions::SkillCatalog>()));
  return tools;
}

// A value `property` accepts: the first of an enum, a number at its minimum, "x" for a string.
json value_the_property_accepts(const json& property) {
  if (property.contains("enum")) return property["enum"].front();
  const std::string type = property.value("type", "string");
  if (type == "integer" || type == "number") return property.value("minimum", 1);
  if (type == "boolean") return false;
  if (type == "array") return json::array();
  if (type == "object") return json::object();
  return "x";
}

// The tool's required fields, each with a value it accepts.
json required_fields_filled(const json& parameters) {
  json args = json::object();
  for (const json& name : parameters.value("required", json::array())) {
    args[name.get<std::string>()] =
        value_the_property_accepts(parameters["properties"][name.get<std::string>()]);
  }
  return args;
}

TEST(BuiltinToolArgumentsTest, EveryBuiltInToolRefusesAnUnlistedFieldNamingTheAllowedOnes) {
  auto registry = core::ToolRegistry::create(builtin_tools_for_extra_field_test(), {});
  ASSERT_TRUE(registry.ok()) << registry.error();
  const std::vector<std::string> names = registry.value()->names();
  for (const char* expected :
       {"read", "bash", "edit", "write", "grep", "find", "ls", "web_fetch", "todo_write",
        "job_output", "job_kill", "job_list", "task", "skill"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  for (const core::ToolSpec& spec : registry.value()->specs()) {
    SCOPED_TRACE(spec.name);
    // What the model is offered says so.
    EXPECT_EQ(spec.parameters.value("additionalProperties", json()), false);
    json args = required_fields_filled(spec.parameters);
    const core::RegisteredTool* registered = registry.value()->find(spec.name);
    ASSERT_NE(registered, nullptr);
    ASSERT_TRUE(registered->schema->validate(args).empty()) << args.dump();
    std::string allowed;
    for (const auto& [name, property] : spec.parameters["properties"].items()) {
      allowed += (allowed.empty() ? "" : ", ") + name;
    }
    args[kUnlistedField] = true;
    const auto prepared = core::prepare_tool_call(core::ToolCall{"c1", spec.name, args.dump()},
                                                  *registry.value(), {});
    const auto* refused = std::get_if<core::ToolResult>(&prepared);
    ASSERT_NE(refused, nullptr) << "the call was accepted";
    EXPECT_TRUE(refused->is_error);
    EXPECT_EQ(core::content_text(refused->content),
              "Error: invalid arguments for " + spec.name + " — (root): unknown property \"" +
                  kUnlistedField + "\" (allowed: " + (allowed.empty() ? "none" : allowed) +
                  "). Fix the arguments and retry.");
  }
}

}  // namespace
}  // namespace nib::app
