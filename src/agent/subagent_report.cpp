#include "agent/subagent_report.hpp"

#include <cstdio>

#include "util/byte_size.hpp"
#include "util/plural.hpp"

namespace nib::agent {
namespace {

std::string seconds_text(std::chrono::milliseconds duration) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(duration.count()) / 1000.0);
  return text;
}

std::uint64_t total_tokens(const core::Usage& usage) {
  return static_cast<std::uint64_t>(usage.input_tokens + usage.output_tokens +
                                    usage.cache_read_tokens + usage.cache_write_tokens);
}

// Why a run that did not answer stopped, as the model reads it after "the subagent ...".
std::string failure_text(const core::RunEndEvent& end) {
  switch (end.reason) {
    case core::RunStopReason::kAborted:
      return "was interrupted by the user before it finished";
    case core::RunStopReason::kMaxTurns:
    case core::RunStopReason::kMaxBudget:
      return "stopped before it finished: " + end.error_message;
    case core::RunStopReason::kError:
      return "failed: " + (end.error_message.empty() ? std::string("its model request failed")
                                                     : end.error_message);
    case core::RunStopReason::kDone:
      return "ended without giving an answer";
  }
  return "stopped";
}

}  // namespace

std::string final_answer(const std::vector<core::Message>& history) {
  for (auto it = history.rbegin(); it != history.rend(); ++it) {
    const auto* reply = std::get_if<core::AssistantMessage>(&*it);
    if (reply == nullptr) continue;
    std::string text;
    for (const auto& block : reply->blocks) {
      if (const auto* part = std::get_if<core::TextBlock>(&block)) {
        if (!text.empty() && !part->text.empty()) text += "\n\n";
        text += part->text;
      }
    }
    if (text.find_first_not_of(" \t\r\n") != std::string::npos) return text;
  }
  return {};
}

std::string summary_footer(const SubagentSummary& summary) {
  return "[" + summary.agent_id + " (" + summary.agent_name + ") · " +
         util::plural(static_cast<std::size_t>(summary.end.turns), "turn") + " · " +
         util::plural(static_cast<std::size_t>(summary.tool_calls), "tool call") + " · " +
         util::format_count(total_tokens(summary.end.usage)) + " tokens · " +
         seconds_text(summary.duration) + "]";
}

core::ToolOutput task_output(const SubagentSummary& summary) {
  const bool answered = !summary.answer.empty();
  if (summary.end.reason == core::RunStopReason::kDone && answered) {
    return {summary.answer + "\n\n" + summary_footer(summary)};
  }
  std::string text =
      "Error: the subagent " + summary.agent_id + " " + failure_text(summary.end) + ".\n";
  text += answered ? "Its answer so far:\n" + summary.answer + "\n"
                   : std::string("It gave no answer.\n");
  return core::ToolOutput::error(text + summary_footer(summary));
}

}  // namespace nib::agent
