#include "core/tool_scheduler.hpp"

#include "core/lingering_workers.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <utility>

#include "util/json_text.hpp"

namespace nib::core {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

struct Completion {
  std::size_t index;
  ToolOutcome outcome;
};

// An event a running call hands its run (ToolContext::report).
struct Report {
  std::size_t index;
  Event event;
};

// Where workers report and what the scheduler's thread sleeps on. Shared with the workers, so
// an abandoned worker can still push its (ignored) result after the batch is gone.
struct CompletionQueue {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<Completion> items;
  std::deque<Report> reports;  // of running calls, each before its call's completion
  bool woken = false;          // a stop request or a freed slot wants the scheduler to look again

  void push(Completion completion) {
    std::lock_guard lock(mutex);
    items.push_back(std::move(completion));
    cv.notify_all();
  }
  void report(Report report) {
    std::lock_guard lock(mutex);
    reports.push_back(std::move(report));
    cv.notify_all();
  }
  void wake() {
    std::lock_guard lock(mutex);
    woken = true;
    cv.notify_all();
  }
};

// A running call's thread and the flag it sets as the last thing it does.
struct Worker {
  std::thread thread;
  std::shared_ptr<std::atomic<bool>> finished;
};

ToolOutcome outcome_with_error(const ToolCall& call, std::string text) {
  return ToolOutcome{error_result(call, std::move(text)), std::nullopt, milliseconds{0}};
}

}  // namespace

class ToolScheduler::Batch {
 public:
  Batch(const SchedulerOptions& options, const std::vector<ToolCall>& calls, std::stop_token stop)
      : options_(options), calls_(calls), stop_(std::move(stop)), states_(calls.size()) {}

  ToolResultMessage run() {
    std::size_t begin = 0;
    while (begin < calls_.size()) {
      const std::size_t end = chunk_end(begin);
      if (stop_.stop_requested()) {
        for (std::size_t i = begin; i < calls_.size(); ++i) {
          emit_start(i);
          settle(i, outcome_with_error(calls_[i], kInterruptedBeforeRun));
        }
        break;
      }
      run_chunk(begin, end);
      begin = end;
    }
    ToolResultMessage message;
    for (auto& state : states_) message.results.push_back(std::move(state.outcome->result));
    return message;
  }

  ToolResultMessage settle_all(const std::string& text) {
    for (std::size_t i = 0; i < calls_.size(); ++i) {
      emit_start(i);
      settle(i, outcome_with_error(calls_[i], text));
    }
    ToolResultMessage message;
    for (auto& state : states_) message.results.push_back(std::move(state.outcome->result));
    return message;
  }

 private:
  struct CallState {
    std::optional<PreparedCall> prepared;
    std::vector<ResourceClaim> claims;
    std::optional<ToolOutcome> outcome;
    std::optional<Worker> worker;
    Clock::TimePoint started{};                // when its worker started
    std::optional<ClaimTable::Ticket> ticket;  // in the claim table while it waits or runs
    bool holds_slot = false;                   // it took a tool slot to run
  };

  bool is_concurrency_safe(std::size_t i) const {
    const RegisteredTool* registered = options_.tools->find(calls_[i].name);
    return registered && registered->tool->spec().concurrency_safe;
  }

  // A serial call is a chunk of its own; consecutive concurrency_safe calls form one chunk.
  std::size_t chunk_end(std::size_t begin) const {
    if (!is_concurrency_safe(begin)) return begin + 1;
    std::size_t end = begin + 1;
    while (end < calls_.size() && is_concurrency_safe(end)) ++end;
    return end;
  }

  ToolContext context_for(std::size_t i) const { return ToolContext{calls_[i].id, options_.cwd}; }

  // The context call `i` runs with once prepared: what it was judged on, and the checks its
  // follow-ups (a redirect) go through.
  ToolContext run_context_for(std::size_t i) const {
    ToolContext context = context_for(i);
    context.access = states_[i].prepared->access;
    context.check_follow_up = follow_up_checker(options_.pre_tool, options_.gate, calls_[i],
                                                *options_.tools, context_for(i));
    return context;
  }

  void emit(Event event) const {
    if (options_.on_event) options_.on_event(event);
  }

  // Whether a call of this tool may have changed something before it was stopped.
  bool may_change_things(const ToolCall& call) const {
    const RegisteredTool* tool = options_.tools->find(call.name);
    if (tool == nullptr) return false;
    const AccessKind access = tool->tool->spec().access;
    return access != AccessKind::kNone && access != AccessKind::kRead &&
           access != AccessKind::kNetwork;
  }

  void emit_start(std::size_t i) const {
    emit(ToolStartEvent{calls_[i].id, calls_[i].name, calls_[i].arguments});
  }

  // Records a call's final outcome, then hands out every result now deliverable in call order.
  // Every call ends here, so here it leaves the claim table.
  void settle(std::size_t i, ToolOutcome outcome) {
    if (const auto ticket = std::exchange(states_[i].ticket, std::nullopt)) {
      options_.claims->leave(*ticket);
    }
    states_[i].outcome = std::move(outcome);
    emit(ToolSettledEvent{*states_[i].outcome});
    while (next_to_end_ < states_.size() && states_[next_to_end_].outcome) {
      emit(ToolEndEvent{*states_[next_to_end_].outcome});
      ++next_to_end_;
    }
  }

  void run_chunk(std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) emit_start(i);
    // The whole chunk is checked in call order before any of it runs.
    std::vector<std::size_t> approved;
    for (std::size_t i = begin; i < end; ++i) {
      if (stop_.stop_requested()) {
        settle(i, outcome_with_error(calls_[i], kInterruptedBeforeRun));
        continue;
      }
      auto prepared =
          prepare_tool_call(calls_[i], *options_.tools, context_for(i), options_.edit_style);
      if (auto* rejected = std::get_if<ToolResult>(&prepared)) {
        settle(i, ToolOutcome{std::move(*rejected), std::nullopt, milliseconds{0}});
        continue;
      }
      auto& call = std::get<PreparedCall>(prepared);
      if (auto blocked = apply_gate(options_.pre_tool, options_.gate, calls_[i], call,
                                    *options_.tools, context_for(i), stop_)) {
        settle(i, ToolOutcome{std::move(*blocked), std::nullopt, milliseconds{0}});
        continue;
      }
      try {
        states_[i].claims = call.tool->claims(*call.access, call.args);
      } catch (const std::exception& e) {
        settle(i, outcome_with_error(calls_[i], "Error: tool " + calls_[i].name +
                                                    " could not say what it touches: " + e.what()));
        continue;
      }
      states_[i].prepared = std::move(call);
      approved.push_back(i);
    }
    // In call order, behind every call of the process already waiting or running.
    for (std::size_t i : approved) {
      if (!states_[i].claims.empty()) states_[i].ticket = options_.claims->enter(states_[i].claims);
    }
    run_window(approved);
  }

  // Starts waiting calls in call order: a call whose claims conflict with an earlier call of
  // the process (claim_table.hpp) waits; one that delegates its work takes no slot; any other
  // needs a free slot, and once none is free no later call takes one (they keep call order).
  void launch_ready(std::deque<std::size_t>& waiting) {
    bool out_of_slots = false;
    for (auto it = waiting.begin(); it != waiting.end();) {
      const std::size_t i = *it;
      const auto& ticket = states_[i].ticket;
      const bool delegates = states_[i].prepared->access->kind == AccessKind::kDelegate;
      if ((ticket && !options_.claims->may_start(*ticket)) || (!delegates && out_of_slots)) {
        ++it;
        continue;
      }
      if (!delegates && !options_.slots->try_acquire()) {
        out_of_slots = true;
        ++it;
        continue;
      }
      states_[i].holds_slot = !delegates;
      launch(i);
      it = waiting.erase(it);
    }
  }

  // Starts call `i` on a worker thread of its own, holding a slot taken by the caller. A thread
  // exists only while its call runs, so a reply with thousands of calls never holds more than
  // the slot budget's threads; when the system cannot start one, the call gets an error result.
  void launch(std::size_t i) {
    running_.push_back(i);
    const PreparedCall& prepared = *states_[i].prepared;
    emit(ToolRunningEvent{
        calls_[i].id, calls_[i].name,
        prepared.args_updated ? std::optional(util::json_text(prepared.args)) : std::nullopt});
    auto finished = std::make_shared<std::atomic<bool>>(false);
    try {
      // The worker touches only what it shares ownership of (see lingering_workers.hpp); its
      // call's duration is measured here, on the scheduler's thread.
      states_[i].started = options_.clock->now();
      ToolContext context = run_context_for(i);
      context.report = [queue = std::weak_ptr(queue_), i](Event event) {
        if (const auto alive = queue.lock()) alive->report(Report{i, std::move(event)});
      };
      std::thread thread = options_.start_thread([queue = queue_, call = calls_[i], prepared,
                                                  after = options_.after_tool, stop = stop_,
                                                  context = std::move(context), finished, i] {
        ToolOutcome outcome = run_tool(call, prepared, stop, context);
        apply_after_tool(after, call, prepared, outcome.result, stop);
        queue->push(Completion{i, std::move(outcome)});
        finished->store(true);
      });
      states_[i].worker = Worker{std::move(thread), std::move(finished)};
    } catch (const std::system_error& error) {
      finish_running(i, outcome_with_error(calls_[i], "Error: tool " + calls_[i].name +
                                                          " could not be started: no thread "
                                                          "for it (" +
                                                          error.what() + "). Try again later."));
    }
  }

  // Ends running call `i` with `outcome`: its slot is freed and its worker joined (it has only
  // its return left to do) or, when abandoned, handed to the process's lingering workers.
  void finish_running(std::size_t i, ToolOutcome outcome, bool abandoned = false) {
    if (stop_.stop_requested() && may_change_things(calls_[i])) {
      outcome.result.content.push_back(TextBlock{kStoppedNotUndoneNote});
    }
    running_.erase(std::find(running_.begin(), running_.end(), i));
    if (std::exchange(states_[i].holds_slot, false)) options_.slots->release();
    if (auto& worker = states_[i].worker) {
      if (abandoned) {
        lingering_workers().adopt(std::move(worker->thread), std::move(worker->finished));
      } else {
        worker->thread.join();
        outcome.duration = duration_cast<milliseconds>(options_.clock->now() - states_[i].started);
      }
      worker.reset();
    }
    settle(i, std::move(outcome));
  }

  void run_window(const std::vector<std::size_t>& approved) {
    if (approved.empty()) return;
    queue_ = std::make_shared<CompletionQueue>();
    std::stop_callback wake_on_stop(stop_, [queue = queue_] { queue->wake(); });
    SlotPool::Listener wake_on_free_slot(*options_.slots, [queue = queue_] { queue->wake(); });
    ClaimTable::Listener wake_on_claim_change(*options_.claims,
                                              [queue = queue_] { queue->wake(); });

    std::deque<std::size_t> waiting(approved.begin(), approved.end());
    std::optional<Clock::TimePoint> grace_deadline;
    while (!waiting.empty() || !running_.empty()) {
      if (!grace_deadline && stop_.stop_requested()) {
        grace_deadline = options_.clock->now() + options_.abort_grace;
        for (std::size_t i : waiting)
          settle(i, outcome_with_error(calls_[i], kInterruptedBeforeRun));
        waiting.clear();
        if (running_.empty()) break;
      }
      if (!grace_deadline) launch_ready(waiting);

      std::deque<Completion> done;
      std::deque<Report> reports;
      {
        std::unique_lock lock(queue_->mutex);
        while (queue_->items.empty() && queue_->reports.empty() && !queue_->woken) {
          if (!grace_deadline) {
            queue_->cv.wait(lock);
          } else if (options_.clock->now() < *grace_deadline) {
            options_.clock->wait_until(queue_->cv, lock, *grace_deadline);
          } else {
            break;
          }
        }
        queue_->woken = false;
        done.swap(queue_->items);
        reports.swap(queue_->reports);
      }
      // Taken together, so a call's reports all come before its completion; the reports of an
      // abandoned call, which has settled, are dropped with its late result.
      for (auto& report : reports) {
        if (!states_[report.index].outcome) emit(std::move(report.event));
      }
      for (auto& completion : done) finish_running(completion.index, std::move(completion.outcome));

      if (grace_deadline && !running_.empty() && options_.clock->now() >= *grace_deadline) {
        abandon_running();
      }
    }
  }

  void abandon_running() {
    const auto grace_s = duration_cast<std::chrono::seconds>(options_.abort_grace).count();
    for (std::size_t i : std::vector<std::size_t>(running_)) {
      finish_running(
          i,
          outcome_with_error(calls_[i], "Error: tool " + calls_[i].name + " did not stop within " +
                                            std::to_string(grace_s) +
                                            " s of the abort; its result was abandoned and the "
                                            "operation may still be running."),
          /*abandoned=*/true);
    }
  }

  const SchedulerOptions& options_;
  const std::vector<ToolCall>& calls_;
  std::stop_token stop_;
  std::vector<CallState> states_;
  std::size_t next_to_end_ = 0;
  std::shared_ptr<CompletionQueue> queue_;
  std::vector<std::size_t> running_;
};

ToolScheduler::ToolScheduler(SchedulerOptions options) : options_(std::move(options)) {}

ToolResultMessage ToolScheduler::execute_batch(const std::vector<ToolCall>& calls,
                                               std::stop_token stop) {
  lingering_workers().reap();
  return Batch(options_, calls, std::move(stop)).run();
}

ToolResultMessage ToolScheduler::settle_unrun(const std::vector<ToolCall>& calls,
                                              const std::string& text) {
  return Batch(options_, calls, std::stop_token{}).settle_all(text);
}

}  // namespace nib::core
