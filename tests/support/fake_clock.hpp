#pragma once
// A manually advanced Clock for tests: time moves only when the test calls advance(). A test
// can wait until some thread is blocked in wait_until (e.g. the scheduler's abort grace) before
// advancing, so no real time passes and nothing races. Thread-safe.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "core/clock.hpp"

namespace nib::testing {

class FakeClock final : public core::Clock {
 public:
  TimePoint now() const override;
  void wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                  TimePoint deadline) override;

  // Moves time forward and wakes every waiter so it can re-check its deadline.
  void advance(std::chrono::milliseconds step);
  // Blocks until at least `count` calls to wait_until have started since construction.
  void await_waits(int count);

 private:
  struct Waiter {
    std::condition_variable* cv;
    std::mutex* mutex;
  };
  std::atomic<TimePoint::rep> ticks_{0};
  std::mutex mutex_;
  std::condition_variable waits_changed_;
  std::vector<Waiter> waiters_;
  int waits_started_ = 0;
};

}  // namespace nib::testing
