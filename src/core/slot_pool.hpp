#pragma once
// A process-wide budget of tool executions that may run at once. Unlike a per-batch window,
// one pool is shared by every scheduler in the process (sessions, sub-agents), so the limit
// holds however many batches run. Thread-safe.

#include <cstddef>
#include <functional>
#include <list>
#include <mutex>

namespace nib::core {

// Concurrent tool executions per process: enough to overlap file reads and searches, few enough
// that parallel calls do not thrash the disk or a 2-core machine.
inline constexpr std::size_t kMaxConcurrentTools = 5;

class SlotPool {
 public:
  explicit SlotPool(std::size_t capacity);
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;

  // Takes a slot if one is free; never blocks.
  bool try_acquire();
  // Returns a slot and runs every listener (outside the pool's lock).
  void release();
  std::size_t capacity() const { return capacity_; }

  // Keeps `on_release` registered while the returned handle lives; it runs on the releasing
  // thread, so it must be quick and thread-safe (e.g. notify a condition variable).
  class Listener {
   public:
    Listener(SlotPool& pool, std::function<void()> on_release);
    ~Listener();
    Listener(const Listener&) = delete;
    Listener& operator=(const Listener&) = delete;

   private:
    SlotPool& pool_;
    std::list<std::function<void()>>::iterator position_;
  };

 private:
  const std::size_t capacity_;
  std::mutex mutex_;
  std::size_t in_use_ = 0;
  std::list<std::function<void()>> listeners_;
};

// The pool shared by every scheduler of this process, with kMaxConcurrentTools slots.
SlotPool& process_slot_pool();

}  // namespace nib::core
