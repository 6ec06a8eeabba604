#include "support/event_recorder.hpp"

#include <algorithm>

namespace nib::testing {
namespace {

// Tool events are keyed by the call id; the test tools use ids equal to their "id" argument.
std::string describe(const core::Event& event) {
  using namespace core;
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, ToolStartEvent>) return "start:" + e.id;
        if constexpr (std::is_same_v<T, ToolRunningEvent>) return "running:" + e.id;
        if constexpr (std::is_same_v<T, ToolSettledEvent>)
          return "settled:" + e.outcome.result.tool_call_id;
        if constexpr (std::is_same_v<T, ToolEndEvent>)
          return "end:" + e.outcome.result.tool_call_id;
        if constexpr (std::is_same_v<T, TurnStartEvent>)
          return "turn_start:" + std::to_string(e.turn);
        if constexpr (std::is_same_v<T, TurnEndEvent>) return "turn_end:" + std::to_string(e.turn);
        if constexpr (std::is_same_v<T, RunStartEvent>) return "run_start";
        if constexpr (std::is_same_v<T, RunEndEvent>)
          return std::string("run_end:") + run_stop_reason_name(e.reason);
        if constexpr (std::is_same_v<T, MessageEndEvent>) return "message_end";
        if constexpr (std::is_same_v<T, ToolResultsEvent>) return "tool_results";
        if constexpr (std::is_same_v<T, TextDeltaEvent>) return "text:" + e.text;
        if constexpr (std::is_same_v<T, UserMessageEvent>) return "user_message";
        if constexpr (std::is_same_v<T, HistoryCompactedEvent>)
          return "compacted:" + std::to_string(e.kept);
        return "other";
      },
      event);
}

}  // namespace

core::EventSink EventRecorder::sink() {
  return [this](const core::Event& event) { record(event); };
}

void EventRecorder::record(const core::Event& event) {
  std::lock_guard lock(mutex_);
  events_.push_back(describe(event));
  if (const auto* end = std::get_if<core::ToolEndEvent>(&event)) ended_.push_back(end->outcome);
  changed_.notify_all();
}

std::vector<std::string> EventRecorder::events() {
  std::lock_guard lock(mutex_);
  return events_;
}

std::vector<std::string> EventRecorder::events_with(const std::string& prefix) {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& e : events_) {
    if (e.rfind(prefix, 0) == 0) out.push_back(e);
  }
  return out;
}

void EventRecorder::await(const std::string& event) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock,
                [&] { return std::find(events_.begin(), events_.end(), event) != events_.end(); });
}

std::vector<core::ToolOutcome> EventRecorder::ended() {
  std::lock_guard lock(mutex_);
  return ended_;
}

}  // namespace nib::testing
