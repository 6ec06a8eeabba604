#pragma once
// The one ordered stream of things that happen during a run. Every event is emitted from the
// loop's own thread, in a well-defined order, so sinks need no locks.
//
// Per tool call: tool_start (registered; may still wait for checks or a slot), tool_running
// (really started; absent when the call was rejected or never ran), tool_settled (finished, in
// completion order), tool_end (in call order, once every earlier call has ended).

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <variant>

#include "core/messages.hpp"

namespace nib::core {

struct RunStartEvent {};
struct TurnStartEvent {
  int turn = 0;  // 1-based
};
// A streamed fragment of the assistant reply being received.
struct TextDeltaEvent {
  std::string text;
};
struct ThinkingDeltaEvent {
  std::string text;
};
struct ToolCallDeltaEvent {
  int index = 0;         // position among the reply's tool calls
  std::string id;        // set on the first fragment
  std::string name;      // set on the first fragment
  std::string fragment;  // a piece of the argument text
};
// The provider is waiting before retrying a failed request.
struct RetryEvent {
  int attempt = 0;
  std::chrono::milliseconds delay{0};
  std::string reason;
};
// The service started its reply over within one stream (a gateway that spliced a retried
// attempt in after a failed one): every delta of this reply so far is void. The deltas that
// follow, and the MessageEndEvent that ends the reply, are the reply.
struct ReplyRestartEvent {};
struct MessageEndEvent {
  AssistantMessage message;
};

struct ToolStartEvent {
  std::string id;
  std::string name;
  std::string arguments;
};
struct ToolRunningEvent {
  std::string id;
  std::string name;
};
// Shared by tool_settled and tool_end: the result plus its UI-only fields.
struct ToolOutcome {
  ToolResult result;
  std::optional<std::string> display;
  std::chrono::milliseconds duration{0};  // running time only; excludes time in the queue
};
struct ToolSettledEvent {
  ToolOutcome outcome;
};
struct ToolEndEvent {
  ToolOutcome outcome;
};
struct ToolResultsEvent {
  ToolResultMessage message;
};
struct TurnEndEvent {
  int turn = 0;
};
// A message the user sent while the run was working (steering), now added to the history at a
// turn boundary, before the next request.
struct UserMessageEvent {
  UserMessage message;
};

enum class RunStopReason {
  kDone,      // the model answered without asking for tools
  kAborted,   // the user aborted
  kMaxTurns,  // the turn limit was reached
  kError,     // the provider failed
};
const char* run_stop_reason_name(RunStopReason reason);

struct RunEndEvent {
  RunStopReason reason = RunStopReason::kDone;
  std::string error_message;
  Usage usage;
  int turns = 0;
};

using Event = std::variant<RunStartEvent, TurnStartEvent, TextDeltaEvent, ThinkingDeltaEvent,
                           ToolCallDeltaEvent, RetryEvent, ReplyRestartEvent, MessageEndEvent,
                           ToolStartEvent, ToolRunningEvent, ToolSettledEvent, ToolEndEvent,
                           ToolResultsEvent, TurnEndEvent, UserMessageEvent, RunEndEvent>;

using EventSink = std::function<void(const Event&)>;

}  // namespace nib::core
