#include "core/wake_list.hpp"

#include <vector>

namespace nib::core {

WakeList::Registration::Registration(WakeList& list, std::function<void()> callback) : list_(list) {
  std::lock_guard lock(list_.mutex_);
  position_ = list_.callbacks_.insert(list_.callbacks_.end(), std::move(callback));
}

WakeList::Registration::~Registration() {
  std::lock_guard lock(list_.mutex_);
  list_.callbacks_.erase(position_);
}

void WakeList::notify_all() {
  std::vector<std::function<void()>> to_run;
  {
    std::lock_guard lock(mutex_);
    to_run.assign(callbacks_.begin(), callbacks_.end());
  }
  for (const auto& callback : to_run) callback();
}

}  // namespace nib::core
