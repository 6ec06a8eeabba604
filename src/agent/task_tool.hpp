#pragma once
// The task tool: hands a self-contained piece of work to a subagent, a run of its own in this
// process with a fresh history (the prompt is its first user message), the agent's system
// prompt, tools and model, and returns its final answer (subagent_report.hpp). The subagent's
// events reach the calling run through ToolContext::report, as SubagentEvents.
//
// Concurrency-safe (several tasks run side by side) and delegating: it takes no tool slot and
// claims nothing, since its subagent's calls take their own slots and claims, and holding one
// while waiting for them would deadlock. Each level of nesting has a budget of its own
// (kMaxSubagentsPerLevel). Thread-safe: calls share only immutable state.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/subagent_environment.hpp"
#include "core/tool.hpp"

namespace nib::agent {

// The task tool of a run at `depth` (0: the user's run). `allowed_agents`: the only agents it
// may start (a definition's "Agent(a, b)"); nullopt: any.
core::ToolPtr make_task_tool(std::shared_ptr<const SubagentEnvironment> environment, int depth,
                             std::optional<std::vector<std::string>> allowed_agents);

}  // namespace nib::agent
