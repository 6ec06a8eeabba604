#include "support/fake_clock.hpp"

#include <algorithm>

namespace nib::testing {

core::Clock::TimePoint FakeClock::now() const {
  return TimePoint(TimePoint::duration(ticks_.load()));
}

void FakeClock::wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                           TimePoint deadline) {
  {
    std::lock_guard guard(mutex_);
    waiters_.push_back({&cv, lock.mutex()});
    ++waits_started_;
  }
  waits_changed_.notify_all();
  // advance() takes the caller's mutex before notifying, so a wake-up cannot slip in between
  // this check and the wait.
  if (now() < deadline) cv.wait(lock);
  std::lock_guard guard(mutex_);
  waiters_.erase(
      std::find_if(waiters_.begin(), waiters_.end(), [&](const Waiter& w) { return w.cv == &cv; }));
}

void FakeClock::advance(std::chrono::milliseconds step) {
  ticks_ += std::chrono::duration_cast<TimePoint::duration>(step).count();
  std::vector<Waiter> waiters;
  {
    std::lock_guard guard(mutex_);
    waiters = waiters_;
  }
  for (const auto& waiter : waiters) {
    std::lock_guard guard(*waiter.mutex);
    waiter.cv->notify_all();
  }
}

void FakeClock::await_waits(int count) {
  std::unique_lock lock(mutex_);
  waits_changed_.wait(lock, [&] { return waits_started_ >= count; });
}

}  // namespace nib::testing
