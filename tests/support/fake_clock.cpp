#include "support/fake_clock.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

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

int FakeClock::poll_until(std::span<pollfd> fds, std::optional<TimePoint> deadline) {
  const int wake_fd = ::eventfd(0, EFD_CLOEXEC);
  if (wake_fd < 0) return -1;
  Poller poller{{fds.begin(), fds.end()}, {now(), deadline}};
  poller.fds.push_back({wake_fd, POLLIN, 0});
  {
    std::lock_guard guard(mutex_);
    pollers_.push_back(poller);
    ++waits_started_;
  }
  waits_changed_.notify_all();
  int ready = 0;
  // An advance() after this check signals wake_fd, which is registered already.
  if (!deadline || now() < *deadline) {
    ready = ::poll(poller.fds.data(), poller.fds.size(), -1);
    if (ready > 0 && poller.fds.back().revents != 0) --ready;
    for (std::size_t i = 0; i < fds.size(); ++i) fds[i].revents = poller.fds[i].revents;
  }
  {
    std::lock_guard guard(mutex_);
    pollers_.erase(std::find_if(pollers_.begin(), pollers_.end(),
                                [&](const Poller& p) { return p.fds.back().fd == wake_fd; }));
  }
  ::close(wake_fd);
  return ready;
}

void FakeClock::advance(std::chrono::milliseconds step) {
  ticks_ += std::chrono::duration_cast<TimePoint::duration>(step).count();
  std::vector<Waiter> waiters;
  {
    std::lock_guard guard(mutex_);
    waiters = waiters_;
    // Under the lock: a poller closes its eventfd only after leaving the list.
    const std::uint64_t one = 1;
    for (const Poller& poller : pollers_) {
      [[maybe_unused]] const auto written = ::write(poller.fds.back().fd, &one, sizeof one);
    }
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

bool FakeClock::blocked(const Poller& poller) const {
  if (poller.poll.deadline && now() >= *poller.poll.deadline) return false;
  // The descriptors stay open while their poller is listed: it leaves the list first.
  std::vector<pollfd> fds = poller.fds;
  return ::poll(fds.data(), fds.size(), 0) == 0;
}

std::optional<FakeClock::Poll> FakeClock::await_blocked_poll() {
  std::unique_lock lock(mutex_);
  std::optional<Poll> found;
  // Re-checked whenever a poll joins the list. A listed poll that is not blocked cannot become
  // so while it stays listed (its owner, inside poll, reads nothing): it leaves and polls anew.
  waits_changed_.wait(lock, [&] {
    found.reset();
    for (const Poller& poller : pollers_) {
      if (blocked(poller)) found = poller.poll;
    }
    return awaiting_stopped_ || found;
  });
  return found;
}

void FakeClock::stop_awaiting() {
  {
    std::lock_guard guard(mutex_);
    awaiting_stopped_ = true;
  }
  waits_changed_.notify_all();
}

}  // namespace nib::testing
