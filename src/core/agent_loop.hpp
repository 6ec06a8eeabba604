#pragma once
// The agent loop: send the history to the provider, append the assistant reply, run its tool
// calls through the scheduler, append one toolResult message with exactly one result per call,
// and go again until the model stops, the run is aborted, the turn limit is reached or the
// provider fails. Knows nothing of files, shells or terminals.
//
// Not thread-safe: one run at a time; every event is emitted on the thread that calls run().

#include <filesystem>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/events.hpp"
#include "core/history_edit.hpp"
#include "core/pending_notices.hpp"
#include "core/provider.hpp"
#include "core/spend_meter.hpp"
#include "core/tool_scheduler.hpp"

namespace nib::core {

struct LoopOptions {
  Provider* provider = nullptr;
  ModelInfo model;
  ThinkingLevel thinking = ThinkingLevel::kOff;
  bool web_search = false;  // offer the service's hosted web search (ProviderRequest)
  std::string system_prompt;
  const ToolRegistry* tools = nullptr;
  PreToolCheck pre_tool;  // optional: the PreToolUse hooks, asked before the gate
  Gate gate;              // optional: the permission policy
  AfterTool after_tool;   // optional, run after each call that ran (PostToolUse hooks)
  EventSink on_event;     // optional
  // Model requests per run; 0: no limit. A real task can need hundreds, and a cap the user did
  // not ask for only stops work that was going well, so there is none by default.
  int max_turns = 0;
  // Optional: what requests have cost, shared with subagents. Each reply is added to it, and
  // once its cap is reached the run stops before its next request (kMaxBudget).
  SpendMeter* spend = nullptr;
  // ProviderRequest::cache_key of every request ("" for none).
  std::string cache_key;
  Clock* clock = &steady_clock();
  SlotPool* slots = &process_slot_pool();        // tool executions
  SlotPool* requests = &process_request_pool();  // model requests in flight
  ClaimTable* claims = &process_claim_table();
  std::chrono::milliseconds abort_grace = kAbortGrace;
  std::filesystem::path cwd;
  // Optional. Called before each model request with the history about to be sent; a
  // compaction it returns (older messages replaced by a summary, to keep the request within the
  // window) is applied and announced (HistoryCompactedEvent) before the request.
  std::function<std::optional<HistoryCompaction>(const std::vector<Message>& history,
                                                 std::stop_token stop)>
      before_request;
  // Optional. Called when a request failed because the context overflowed before any output; a
  // compaction it returns is applied and announced, and the request is sent once more.
  std::function<std::optional<HistoryCompaction>(const std::vector<Message>& history,
                                                 std::stop_token stop)>
      on_context_overflow;
  // Optional. Called at each turn boundary that leads to another request (after a batch's
  // results): the messages the user sent meanwhile, which join the history before that request
  // (steering). Called from the loop's thread; it must not block.
  std::function<std::vector<UserMessage>()> take_steering;
  // Optional. Called when the model has answered without tool calls, before the run ends as
  // done (Stop hooks): a message it returns joins the history (UserMessageEvent) and the run
  // goes on with another request, unless the turn limit is reached. `continued` counts the
  // times it has done so in this run, so it can stop a loop that would never end.
  std::function<std::optional<UserMessage>(const std::vector<Message>& history, int continued,
                                           std::stop_token stop)>
      before_done;
  // Optional. At the same boundaries, after the steering, the notices posted meanwhile (a
  // background job that exited) join the history as one user message, announced as a
  // UserMessageEvent like steering, so the model reads them before its next request.
  PendingNotices* notices = nullptr;
};

class AgentLoop {
 public:
  explicit AgentLoop(LoopOptions options);

  // Runs until the model answers without tool calls (kDone; before_done may send it on), `stop` is
  // requested (kAborted), max_turns (when set) model requests have been made and the last still
  // asks for tools (kMaxTurns), the spending cap is reached (kMaxBudget, checked before each
  // request, so every call made so far has its result), or the provider fails (kError). `history`
  // ends with the user's new message; every message of the run is appended to it as it happens.
  // Emits RunStart ... RunEnd and returns the RunEnd.
  RunEndEvent run(std::vector<Message>& history, std::stop_token stop);

 private:
  void emit(Event event) const;
  // One model request; an exception from the provider becomes a failed reply.
  AssistantMessage request(const ProviderRequest& request, std::stop_token stop) const;
  // The next request: the system prompt and the tools as they are now.
  ProviderRequest request_for(const std::vector<Message>& history) const;
  // Tells the model the registry's note on tools not (yet) here (an MCP server still starting
  // or failed) when it changed since the history last told it, as a user message: in the
  // system prompt, each change would defeat the services' prompt caches.
  void tell_tool_note(std::vector<Message>& history) const;
  // Appends `results` to history and announces them.
  void record_results(std::vector<Message>& history, ToolResultMessage results) const;

  LoopOptions options_;
  ToolScheduler scheduler_;
};

}  // namespace nib::core
