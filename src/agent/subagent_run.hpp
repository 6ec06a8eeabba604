#pragma once
// One subagent's run, from its definition to its summary: its tools (the definition's share of
// fresh instances, and a task tool one level deeper when the definition grants it), its model,
// its loop under a shorter abort grace than its parent's, its transcript, and its events
// relayed to the calling run. Runs on the task call's worker thread.

#include <memory>
#include <stop_token>
#include <string>
#include <variant>

#include "agent/subagent_environment.hpp"
#include "agent/subagent_report.hpp"
#include "core/tool.hpp"

namespace nib::agent {

struct SubagentRequest {
  const extensions::AgentDefinition* definition = nullptr;
  std::string prompt;
  int depth = 1;  // of the subagent: 1 for one the user's run starts
};

// Runs `request` to its end (answer, error, turn limit or `stop`) and sums it up. Events go to
// `context.report` as SubagentEvents of `context.tool_call_id`. A problem before the run
// starts (its tools cannot be assembled) is returned as an error output instead.
std::variant<SubagentSummary, core::ToolOutput> run_subagent(
    const std::shared_ptr<const SubagentEnvironment>& environment, const SubagentRequest& request,
    std::stop_token stop, const core::ToolContext& context);

}  // namespace nib::agent
