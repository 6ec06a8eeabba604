#pragma once
// A manually advanced Clock for tests: time moves only when the test calls advance(). A test
// can wait until some thread is blocked in wait_until (e.g. the scheduler's abort grace) or in
// poll_until (e.g. the command runner between its decisions) before advancing, so no real time
// passes and nothing races. Thread-safe.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <vector>

#include "core/clock.hpp"

namespace nib::testing {

class FakeClock final : public core::Clock {
 public:
  TimePoint now() const override;
  void wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                  TimePoint deadline) override;
  // Polls `fds` without a timeout, waking at each advance() to check `deadline`.
  int poll_until(std::span<pollfd> fds, std::optional<TimePoint> deadline) override;

  // Moves time forward and wakes every waiter so it can re-check its deadline.
  void advance(std::chrono::milliseconds step);
  // Blocks until at least `count` calls to wait_until or poll_until have started since
  // construction.
  void await_waits(int count);
  // A call to poll_until in progress: when it began (now() then) and its deadline.
  struct Poll {
    TimePoint began;
    std::optional<TimePoint> deadline;
  };
  // Blocks until a thread is in a poll_until with nothing to do before the clock moves or a
  // descriptor changes (none of its descriptors ready, its deadline ahead), and returns that
  // poll: what the code under test decided to wait for. Nullopt once stop_awaiting() was called.
  std::optional<Poll> await_blocked_poll();
  // Makes await_blocked_poll return nullopt from now on: call it when the code under test has
  // returned, so that a test awaiting a wait that will never come fails instead of hanging.
  void stop_awaiting();

 private:
  struct Waiter {
    std::condition_variable* cv;
    std::mutex* mutex;
  };
  struct Poller {
    std::vector<pollfd> fds;  // the caller's, then an eventfd that advance() signals
    Poll poll;
  };
  // True when `poller` is blocked as await_blocked_poll means it; mutex_ must be held.
  bool blocked(const Poller& poller) const;
  std::atomic<TimePoint::rep> ticks_{0};
  std::mutex mutex_;
  std::condition_variable waits_changed_;
  std::vector<Waiter> waiters_;
  std::vector<Poller> pollers_;
  int waits_started_ = 0;
  bool awaiting_stopped_ = false;
};

}  // namespace nib::testing
