#include "agent/task_tool.hpp"

#include <algorithm>

#include "agent/level_budget.hpp"
#include "agent/subagent_run.hpp"
#include "core/slot_pool.hpp"
#include "core/tool_registry.hpp"
#include "util/edit_distance.hpp"

namespace nib::agent {
namespace {

using nlohmann::json;

constexpr std::string_view kDefaultAgent = "general";
// Typing mistakes within which an unknown agent name gets a "did you mean".
constexpr std::size_t kAgentSuggestionDistance = 2;

std::string description_for(const SubagentEnvironment& environment,
                            const std::optional<std::vector<std::string>>& allowed) {
  std::vector<extensions::AgentDefinition> listed;
  for (const auto& definition : environment.agents->agents) {
    if (!allowed || std::find(allowed->begin(), allowed->end(), definition.name) != allowed->end())
      listed.push_back(definition);
  }
  return "Hand a self-contained piece of work to a subagent, which works with a fresh history "
         "and its own tools and returns only its final answer. Use it for searches that would "
         "fill your context and for independent work; several task calls in one reply run in "
         "parallel. The subagent sees nothing of this conversation: the prompt must say "
         "everything it needs (the goal, what you know, where to look, what to return). The "
         "user does not see its answer; pass on what matters.\n\nAgents (`agent`, default " +
         std::string(kDefaultAgent) + "):\n" + extensions::agent_listing(listed);
}

json parameters() {
  return {{"type", "object"},
          {"properties",
           {{"description", {{"type", "string"}, {"description", "The task in 3-5 words"}}},
            {"prompt", {{"type", "string"}}},
            {"agent", {{"type", "string"}}}}},
          {"required", json::array({"description", "prompt"})}};
}

// A subagent's tools: the definition's share of fresh instances, plus a task tool one level
// deeper (at `depth`, the subagent's) when the definition grants it.
util::Result<std::unique_ptr<core::ToolRegistry>> subagent_tools(
    const std::shared_ptr<const SubagentEnvironment>& environment,
    const extensions::AgentDefinition& definition, int depth) {
  std::vector<core::ToolPtr> offered = environment->make_tools();
  std::vector<std::string> available;
  for (const auto& tool : offered) available.push_back(tool->name());
  available.emplace_back(extensions::kTaskToolName);
  const std::vector<std::string> granted = extensions::agent_tool_names(definition, available);
  std::vector<core::ToolPtr> tools;
  for (auto& tool : offered) {
    if (std::find(granted.begin(), granted.end(), tool->name()) != granted.end()) {
      tools.push_back(std::move(tool));
    }
  }
  if (std::find(granted.begin(), granted.end(), extensions::kTaskToolName) != granted.end()) {
    tools.push_back(make_task_tool(environment, depth, definition.task_agents));
  }
  return core::ToolRegistry::create(std::move(tools), {});
}

class TaskTool final : public core::Tool {
 public:
  TaskTool(std::shared_ptr<const SubagentEnvironment> environment, int depth,
           std::optional<std::vector<std::string>> allowed)
      : core::Tool(core::ToolSpec{std::string(extensions::kTaskToolName),
                                  description_for(*environment, allowed), parameters(),
                                  /*concurrency_safe=*/true, core::AccessKind::kDelegate}),
        environment_(std::move(environment)),
        depth_(depth),
        allowed_(std::move(allowed)) {}

  core::ToolOutput execute(const json& args, std::stop_token stop,
                           const core::ToolContext& context) override {
    const std::string name = args.value("agent", std::string(kDefaultAgent));
    const extensions::AgentDefinition* definition = environment_->agents->find(name);
    if (definition == nullptr || !may_start(name)) return unknown_agent(name);
    if (depth_ + 1 > environment_->max_depth) {
      return core::ToolOutput::error(
          "Error: subagents may nest at most " + std::to_string(environment_->max_depth) +
          " levels deep, and this call would start level " + std::to_string(depth_ + 1) +
          ". Do the work yourself with your own tools, or answer with what you have so the "
          "agent that started you can hand the rest on.");
    }
    core::SlotPool& pool = subagent_level_pool(depth_ + 1);
    if (!pool.acquire(stop)) {
      return core::ToolOutput::error("Error: interrupted before the subagent started.");
    }
    struct Release {
      core::SlotPool& pool;
      ~Release() { pool.release(); }
    } release{pool};
    auto tools = subagent_tools(environment_, *definition, depth_ + 1);
    if (!tools.ok()) {
      return core::ToolOutput::error("Error: the agent " + definition->name +
                                     " could not be given its tools: " + tools.error());
    }
    return task_output(
        run_subagent(*environment_,
                     SubagentRequest{definition, args.at("prompt").get<std::string>(), depth_ + 1,
                                     tools.value().get()},
                     stop, context));
  }

  std::string describe_call(const json& args) const override {
    const std::string agent = args.value("agent", std::string(kDefaultAgent));
    const auto description = args.find("description");
    return agent + ": " +
           (description != args.end() && description->is_string()
                ? description->get<std::string>()
                : std::string("(no description)"));
  }

  // The footer (agent, turns, calls, tokens, time) stands for a successful answer, which the
  // person reads in the model's reply that uses it.
  std::optional<std::string> describe_result(const json& /*args*/,
                                             const core::ToolResult& result) const override {
    if (result.is_error) return std::nullopt;
    const std::string text = core::content_text(result.content, "");
    const std::size_t last_line = text.rfind('\n');
    return last_line == std::string::npos ? text : text.substr(last_line + 1);
  }

 private:
  bool may_start(const std::string& name) const {
    return !allowed_ || std::find(allowed_->begin(), allowed_->end(), name) != allowed_->end();
  }

  core::ToolOutput unknown_agent(const std::string& name) const {
    std::vector<std::string> startable;
    for (const auto& definition : environment_->agents->agents) {
      if (may_start(definition.name)) startable.push_back(definition.name);
    }
    std::string known;
    for (const std::string& agent : startable) known += (known.empty() ? "" : ", ") + agent;
    const std::string closest = util::closest_name(name, startable, kAgentSuggestionDistance);
    return core::ToolOutput::error("Error: there is no agent \"" + name + "\"" +
                                   (closest.empty() ? "" : " (did you mean \"" + closest + "\"?)") +
                                   "; the agents you may start: " + known + ".");
  }

  std::shared_ptr<const SubagentEnvironment> environment_;
  int depth_;
  std::optional<std::vector<std::string>> allowed_;
};

}  // namespace

core::ToolPtr make_task_tool(std::shared_ptr<const SubagentEnvironment> environment, int depth,
                             std::optional<std::vector<std::string>> allowed_agents) {
  return std::make_shared<TaskTool>(std::move(environment), depth, std::move(allowed_agents));
}

}  // namespace nib::agent
