#include "process/spawn_thread.hpp"

#include <optional>

namespace nib::process {

SpawnThread::SpawnThread() = default;

SpawnThread::~SpawnThread() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

util::Result<SpawnedProcess> SpawnThread::spawn(const SpawnRequest& request) {
  std::optional<util::Result<SpawnedProcess>> result;
  std::unique_lock lock(mutex_);
  // One spawn at a time: a caller waits for the slot, then for its own result.
  wake_.wait(lock, [this] { return !task_ || stopping_; });
  if (stopping_) return util::Result<SpawnedProcess>::failure("nib is shutting down");
  // Started by the first spawn, not with its owner: most runs start no background job.
  if (!thread_.joinable()) thread_ = std::thread([this] { serve(); });
  task_ = [&] { result = spawn_process(request); };
  wake_.notify_all();
  wake_.wait(lock, [&] { return result.has_value(); });
  return std::move(*result);
}

void SpawnThread::serve() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return task_ || stopping_; });
    if (task_) {
      // The spawn runs under the lock: it is short (clone and execve), and the caller that
      // posted it is waiting for it anyway.
      task_();
      task_ = nullptr;
      wake_.notify_all();
      continue;
    }
    return;  // stopping, and nothing is waiting
  }
}

}  // namespace nib::process
