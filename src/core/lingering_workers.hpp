#pragma once
// The owner of worker threads whose tool calls the scheduler abandoned after the abort grace.
// Such a thread may run on indefinitely inside a tool that ignores its stop token, so no run,
// batch or scheduler lives long enough to own it. This keeper lives as long as the process: it
// joins each thread once it has finished, and it is never destroyed, so a thread still stuck
// when the process exits ends with the process instead of being detached (or tripping
// std::terminate in a std::thread destructor). An abandoned thread touches only state it shares
// ownership of (its call, its tool, the completion queue), never the scheduler or its clock.
// Thread-safe.

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace nib::core {

class LingeringWorkers {
 public:
  // Takes `thread`, which sets `*finished` as the last thing it does.
  void adopt(std::thread thread, std::shared_ptr<std::atomic<bool>> finished);
  // Joins every adopted thread that has finished; returns how many are still running.
  std::size_t reap();

 private:
  struct Worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> finished;
  };
  std::mutex mutex_;
  std::vector<Worker> workers_;
};

// The process's keeper.
LingeringWorkers& lingering_workers();

}  // namespace nib::core
