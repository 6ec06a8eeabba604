#pragma once
// A budget of things that may run at once, shared by every run in the process (the main run
// and every subagent): tool executions, model requests in flight. Unlike a per-batch window (the
// chapter's Ink has one), the limit holds however many runs there are, which is the point once
// subagents run side by side. Holders never wait for anything else while they hold a slot (a
// tool call that only waits for other calls, a task, takes none), so a shared budget cannot
// deadlock. Thread-safe.

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <stop_token>

#include "core/wake_list.hpp"

namespace nib::core {

// Concurrent tool executions per process: enough to overlap file reads and searches, few enough
// that parallel calls do not thrash the disk or a 2-core machine (settings: concurrency.tools).
inline constexpr std::size_t kMaxConcurrentTools = 5;
// Model requests in flight per process: subagents working side by side, few enough to stay
// within a service's rate limits (settings: concurrency.requests).
inline constexpr std::size_t kMaxConcurrentRequests = 4;

class SlotPool {
 public:
  explicit SlotPool(std::size_t capacity);
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;

  // Takes a slot if one is free; never blocks.
  bool try_acquire();
  // Takes a slot, waiting for one; false (and no slot) when `stop` fires first.
  bool acquire(std::stop_token stop);
  // Returns a slot and wakes the waiters and every listener.
  void release();
  std::size_t capacity() const;
  // Changes the capacity (settings, read at start-up); slots already taken stay taken.
  void resize(std::size_t capacity);

  // Keeps `on_release` registered while the returned handle lives (see WakeList).
  class Listener {
   public:
    Listener(SlotPool& pool, std::function<void()> on_release)
        : registration_(pool.released_, std::move(on_release)) {}

   private:
    WakeList::Registration registration_;
  };

 private:
  mutable std::mutex mutex_;
  std::condition_variable_any freed_;
  std::size_t capacity_;
  std::size_t in_use_ = 0;
  WakeList released_;
};

// The pools shared by every scheduler and loop of this process.
SlotPool& process_slot_pool();     // tool executions, kMaxConcurrentTools by default
SlotPool& process_request_pool();  // model requests, kMaxConcurrentRequests by default

}  // namespace nib::core
