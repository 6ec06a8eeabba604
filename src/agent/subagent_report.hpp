#pragma once
// What the model that called task receives: the subagent's final answer and a one-line footer
// (agent, turns, tool calls, tokens, duration), or an error that carries the subagent's last
// error and whatever it had answered so far. Never an empty success. Pure; thread-safe.

#include <chrono>
#include <string>
#include <vector>

#include "core/events.hpp"
#include "core/messages.hpp"
#include "core/tool.hpp"

namespace nib::agent {

struct SubagentSummary {
  std::string agent_id;    // "explore-2"
  std::string agent_name;  // "explore"
  core::RunEndEvent end;   // how its run ended, with its turns and usage
  int tool_calls = 0;
  std::chrono::milliseconds duration{0};
  std::string answer;  // final_answer() of its history
};

// The text of the last reply in `history` that has any: the answer, or the partial answer of a
// run that did not finish.
std::string final_answer(const std::vector<core::Message>& history);

// "[explore-2 (explore) · 3 turns · 5 tool calls · 12,345 tokens · 4.2 s]"
std::string summary_footer(const SubagentSummary& summary);

// The task call's result for `summary`.
core::ToolOutput task_output(const SubagentSummary& summary);

}  // namespace nib::agent
