#include "core/lingering_workers.hpp"

namespace nib::core {

void LingeringWorkers::adopt(std::thread thread, std::shared_ptr<std::atomic<bool>> finished) {
  std::lock_guard lock(mutex_);
  workers_.push_back(Worker{std::move(thread), std::move(finished)});
}

std::size_t LingeringWorkers::reap() {
  std::lock_guard lock(mutex_);
  std::erase_if(workers_, [](Worker& worker) {
    if (!worker.finished->load()) return false;
    worker.thread.join();  // it has set the flag; only its return is left
    return true;
  });
  return workers_.size();
}

LingeringWorkers& lingering_workers() {
  // Never destroyed: see the header.
  static auto* keeper = new LingeringWorkers;
  return *keeper;
}

}  // namespace nib::core
