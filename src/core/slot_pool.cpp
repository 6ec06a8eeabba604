#include "core/slot_pool.hpp"

#include <vector>

namespace nib::core {

SlotPool::SlotPool(std::size_t capacity) : capacity_(capacity) {}

bool SlotPool::try_acquire() {
  std::lock_guard lock(mutex_);
  if (in_use_ >= capacity_) return false;
  ++in_use_;
  return true;
}

void SlotPool::release() {
  std::vector<std::function<void()>> to_notify;
  {
    std::lock_guard lock(mutex_);
    --in_use_;
    to_notify.assign(listeners_.begin(), listeners_.end());
  }
  for (const auto& notify : to_notify) notify();
}

SlotPool::Listener::Listener(SlotPool& pool, std::function<void()> on_release) : pool_(pool) {
  std::lock_guard lock(pool_.mutex_);
  position_ = pool_.listeners_.insert(pool_.listeners_.end(), std::move(on_release));
}

SlotPool::Listener::~Listener() {
  std::lock_guard lock(pool_.mutex_);
  pool_.listeners_.erase(position_);
}

SlotPool& process_slot_pool() {
  static SlotPool pool(kMaxConcurrentTools);
  return pool;
}

}  // namespace nib::core
