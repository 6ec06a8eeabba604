#pragma once
// Time as nib's waits see it. Everything that waits for a deadline waits through this seam, so
// tests can use a fake clock instead of waiting real seconds: the scheduler's abort grace (on a
// condition variable) and the command runner's drain and timeout rules (in poll on its pipes).
// Implementations are thread-safe.

#include <poll.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <span>

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
  // Waits as poll(2) does until one of `fds` is ready or `deadline` (none: no limit) has passed
  // on this clock, and returns what poll returns: the number of ready descriptors, 0 when none
  // is (the deadline, or an early return), -1 on an error such as EINTR. Callers re-check the
  // time.
  virtual int poll_until(std::span<pollfd> fds, std::optional<TimePoint> deadline) = 0;
};

// The process's monotonic clock.
Clock& steady_clock();

}  // namespace nib::core
