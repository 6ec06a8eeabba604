#pragma once
// The one ordered stream of things that happen during a run. Every event is emitted from the
// loop's own thread, in a well-defined order, so sinks need no locks.
//
// The contract for tool calls, which every sink may rely on (tests/core/event_contract_test.cpp
// enforces it on every path: run, rejected, gated, aborted, abandoned, turn limit, cut-off or
// failed reply):
// - Every tool call of a reply (every ToolCall block of its MessageEndEvent) gets exactly one
//   tool_start, one tool_settled and one tool_end, in that order, whether or not it ran.
// - tool_start: registered; it may still wait for checks, its turn or a slot.
// - tool_running: it really started; at most one, between its start and its settled, and absent
//   when the call was rejected, refused by the gate, or never ran. It carries the arguments the
//   call runs with when the gate rewrote the model's.
// - tool_settled: its result is final, in completion order.
// - tool_end: in call order, as soon as it and every earlier call of the reply have settled;
//   it carries the same outcome as tool_settled.
// - Then one tool_results event with the whole batch, results in call order: exactly the
//   outcomes the tool_end events carried.
// - A call that runs other runs (a task's subagent) reports their events as subagent events,
//   each after its call's tool_running and before its tool_settled; the nested run's own events
//   keep this same contract among themselves.
// - A call that changes the plan (todo_write) reports one plan event, likewise between its
//   tool_running and its tool_settled.
// - A call that shows output as it goes (bash) reports tool_output events, likewise between its
//   tool_running and its tool_settled.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "core/messages.hpp"
#include "core/plan.hpp"

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
  // The arguments it runs with when the gate rewrote the model's (a hook's updatedInput), as
  // JSON text; absent when it runs with the model's own.
  std::optional<std::string> arguments;
};
// A piece of what a running call prints (bash's output, both streams, as it arrives), for front
// ends that show it live; the call's result is still what the model gets. Bounded per call by
// the tool (tools/limits.hpp kMaxLiveOutputBytes).
struct ToolOutputEvent {
  std::string id;
  std::string text;
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

// The history's older part was replaced by a summary (core/history_edit.hpp); the `kept`
// messages after the summary are the history's verbatim rest.
struct HistoryCompactedEvent {
  std::string summary;
  std::size_t kept = 0;
};

// The model replaced its plan (todo_write): the whole new checklist.
struct PlanEvent {
  Plan items;
};

// An event of a nested run that a tool call started (a task's subagent), relayed to the run
// that made the call. A subagent's own subagents arrive nested one level deeper.
struct NestedEvent;
struct SubagentEvent {
  std::string tool_call_id;  // the call of this run that started the nested run
  std::string agent_id;      // unique in the process, e.g. "explore-2"
  std::string agent_name;    // the agent definition's name, e.g. "explore"
  std::shared_ptr<const NestedEvent> event;
};

enum class RunStopReason {
  kDone,       // the model answered without asking for tools
  kAborted,    // the user aborted
  kMaxTurns,   // the turn limit was reached
  kMaxBudget,  // the spending cap was reached (SpendMeter)
  kError,      // the provider failed
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
                           ToolStartEvent, ToolRunningEvent, ToolOutputEvent, ToolSettledEvent,
                           ToolEndEvent, ToolResultsEvent, TurnEndEvent, UserMessageEvent,
                           HistoryCompactedEvent, PlanEvent, SubagentEvent, RunEndEvent>;

struct NestedEvent {
  Event event;
};

using EventSink = std::function<void(const Event&)>;

// What a SubagentEvent finally carries: the event itself, the subagent that emitted it (the
// innermost SubagentEvent), and how deep that subagent is (1: started by this run).
struct NestedView {
  const SubagentEvent* from = nullptr;
  const Event* event = nullptr;
  int depth = 0;
};
NestedView innermost(const SubagentEvent& event);

}  // namespace nib::core
