#include "session/history_repair.hpp"

#include <algorithm>

namespace nib::session {
namespace {

// Collects the results of one assistant message's calls from the stored toolResult messages
// that follow it, in call order.
core::ToolResultMessage merge_batch(const std::vector<core::ToolCall>& calls,
                                    std::vector<core::ToolResult> stored, RepairedHistory& counts) {
  std::vector<bool> used(stored.size(), false);
  core::ToolResultMessage merged;
  for (const auto& call : calls) {
    // The first unused result for this id: a provider may (wrongly) repeat an id, and each
    // result answers one call only.
    std::size_t found = stored.size();
    for (std::size_t i = 0; i < stored.size(); ++i) {
      if (!used[i] && stored[i].tool_call_id == call.id) {
        found = i;
        break;
      }
    }
    if (found < stored.size()) {
      used[found] = true;
      merged.results.push_back(std::move(stored[found]));
    } else {
      merged.results.push_back(core::ToolResult{call.id, call.name,
                                                core::text_content(kInterruptedResultText),
                                                /*is_error=*/true, std::nullopt});
      ++counts.synthesized_results;
    }
  }
  counts.dropped_results += static_cast<std::size_t>(std::count(used.begin(), used.end(), false));
  return merged;
}

}  // namespace

RepairedHistory repair_history(const std::vector<core::Message>& stored) {
  RepairedHistory out;
  std::size_t i = 0;
  while (i < stored.size()) {
    const core::Message& message = stored[i++];
    if (const auto* results = std::get_if<core::ToolResultMessage>(&message)) {
      // Not preceded by an assistant message with calls: nothing it could answer.
      out.dropped_results += results->results.size();
      continue;
    }
    out.messages.push_back(message);
    const auto* assistant = std::get_if<core::AssistantMessage>(&message);
    if (assistant == nullptr) continue;
    const auto calls = core::tool_calls_of(*assistant);
    if (calls.empty()) continue;
    std::vector<core::ToolResult> batch;
    for (; i < stored.size() && std::holds_alternative<core::ToolResultMessage>(stored[i]); ++i) {
      const auto& part = std::get<core::ToolResultMessage>(stored[i]).results;
      batch.insert(batch.end(), part.begin(), part.end());
    }
    out.messages.emplace_back(merge_batch(calls, std::move(batch), out));
  }
  return out;
}

}  // namespace nib::session
