#pragma once
// One subagent's run, from its definition and tools to its summary: its model, its loop under a
// shorter abort grace than its parent's, its transcript, and its events relayed to the calling
// run. Runs on the task call's worker thread. Its tools come from the task tool
// (task_tool.cpp), which alone knows how to give it a task tool one level deeper.

#include <stop_token>
#include <string>

#include "agent/subagent_environment.hpp"
#include "agent/subagent_report.hpp"
#include "core/tool.hpp"
#include "core/tool_registry.hpp"

namespace nib::agent {

struct SubagentRequest {
  const extensions::AgentDefinition* definition = nullptr;
  std::string prompt;
  int depth = 1;                              // of the subagent: 1 for one the user's run starts
  const core::ToolRegistry* tools = nullptr;  // what the definition grants it
};

// Runs `request` to its end (answer, error, turn limit or `stop`) and sums it up. Events go to
// `context.report` as SubagentEvents of `context.tool_call_id`.
SubagentSummary run_subagent(const SubagentEnvironment& environment, const SubagentRequest& request,
                             std::stop_token stop, const core::ToolContext& context);

}  // namespace nib::agent
