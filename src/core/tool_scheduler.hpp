#pragma once
// Runs the tool calls of one assistant reply and returns exactly one result per call, in call
// order (spec 2.5 and 4.3).
//
// - Serial by default: a call to a tool that is not concurrency_safe runs alone, and is a
//   barrier: nothing after it starts before it ends.
// - A run of consecutive concurrency_safe calls is one chunk: the whole chunk is prepared and
//   gated in call order first; rejected calls get error results and take no slot; approved calls
//   run in a sliding window bounded by the process-wide SlotPool (a call that delegates its
//   work, a task, takes no slot), and calls whose resource claims conflict with any call of the
//   process, this batch's or another run's, never overlap (the process-wide ClaimTable).
// - Events: tool_start when a call is registered, tool_running when it starts (with the
//   arguments it runs with, when the gate rewrote them), tool_settled when
//   it finishes (completion order), tool_end in call order as soon as every earlier call ended.
//   What a running call reports (ToolContext::report: its subagent's events) is emitted from
//   the scheduler's thread too, between the call's tool_running and tool_settled.
// - Abort: running tools get the stop request; one grace deadline is shared by the batch; a call
//   still running then gets a synthesized "abandoned" result and its late result is dropped; its
//   thread goes to the process's lingering workers (lingering_workers.hpp).
//   Calls that never started get "(interrupted before this tool ran)"; the results of calls
//   that were running and may change things end with kStoppedNotUndoneNote.
//
// Not thread-safe: one batch at a time, driven from the loop's thread, which emits every event.

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <stop_token>
#include <thread>
#include <vector>

#include "core/claim_table.hpp"
#include "core/clock.hpp"
#include "core/events.hpp"
#include "core/slot_pool.hpp"
#include "core/tool_call.hpp"
#include "core/tool_registry.hpp"

namespace nib::core {

// After an abort, how long running tools get to stop before their results are abandoned.
inline constexpr std::chrono::milliseconds kAbortGrace{10'000};

inline constexpr const char* kInterruptedBeforeRun = "(interrupted before this tool ran)";

// Ends the result of a call that may change things and was running when the run was stopped:
// stopping a call is not undoing it.
inline constexpr const char* kStoppedNotUndoneNote =
    "[nib] The run was stopped while this call ran: what it had already changed stays changed. "
    "Check the current state before running it again; the user can restore the files as they "
    "were before the prompt with /rewind.";

struct SchedulerOptions {
  const ToolRegistry* tools = nullptr;
  PreToolCheck pre_tool;  // optional: the PreToolUse hooks, asked before the gate
  Gate gate;              // optional: the permission policy
  AfterTool after_tool;   // optional, run on each call's worker once the call has run
  EventSink on_event;     // optional
  Clock* clock = &steady_clock();
  SlotPool* slots = &process_slot_pool();
  ClaimTable* claims = &process_claim_table();
  std::chrono::milliseconds abort_grace = kAbortGrace;
  std::filesystem::path cwd;  // handed to tools in ToolContext
  // The model's (ModelInfo::edit_style): a call of a tool it is not offered is unknown.
  EditStyle edit_style = EditStyle::kAny;
  // Starts a worker thread running its argument; throws std::system_error when the system has
  // none to give (as std::thread's constructor does). A seam for tests of that failure.
  std::function<std::thread(std::function<void()>)> start_thread = [](std::function<void()> run) {
    return std::thread(std::move(run));
  };
};

class ToolScheduler {
 public:
  explicit ToolScheduler(SchedulerOptions options);
  ToolScheduler(const ToolScheduler&) = delete;
  ToolScheduler& operator=(const ToolScheduler&) = delete;

  // Runs `calls` as described above and returns their results in call order.
  ToolResultMessage execute_batch(const std::vector<ToolCall>& calls, std::stop_token stop);

  // Gives every call the error result `text` without running anything, with the usual events
  // (for replies whose calls must not run: cut at the token limit, turn limit, aborted reply).
  ToolResultMessage settle_unrun(const std::vector<ToolCall>& calls, const std::string& text);

 private:
  class Batch;

  SchedulerOptions options_;
};

}  // namespace nib::core
