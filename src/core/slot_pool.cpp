#include "core/slot_pool.hpp"

namespace nib::core {

SlotPool::SlotPool(std::size_t capacity) : capacity_(capacity) {}

bool SlotPool::try_acquire() {
  std::lock_guard lock(mutex_);
  if (in_use_ >= capacity_) return false;
  ++in_use_;
  return true;
}

bool SlotPool::acquire(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  if (!freed_.wait(lock, stop, [this] { return in_use_ < capacity_; })) return false;
  ++in_use_;
  return true;
}

void SlotPool::release() {
  {
    std::lock_guard lock(mutex_);
    --in_use_;
  }
  freed_.notify_all();
  released_.notify_all();
}

std::size_t SlotPool::capacity() const {
  std::lock_guard lock(mutex_);
  return capacity_;
}

void SlotPool::resize(std::size_t capacity) {
  {
    std::lock_guard lock(mutex_);
    capacity_ = capacity;
  }
  freed_.notify_all();
  released_.notify_all();
}

SlotPool& process_slot_pool() {
  static SlotPool pool(kMaxConcurrentTools);
  return pool;
}

SlotPool& process_request_pool() {
  static SlotPool pool(kMaxConcurrentRequests);
  return pool;
}

}  // namespace nib::core
