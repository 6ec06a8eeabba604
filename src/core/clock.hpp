#pragma once
// Time as the core sees it. The scheduler's abort grace waits through this seam so tests can
// use a fake clock instead of waiting 10 real seconds. Implementations are thread-safe.

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace nib::core {

class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;
  // Blocks on `cv` (whose mutex `lock` holds) until notified or until `deadline` has passed on
  // this clock. May return early (spuriously); callers re-check their condition and the time.
  virtual void wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                          TimePoint deadline) = 0;
};

// The process's monotonic clock.
Clock& steady_clock();

}  // namespace nib::core
