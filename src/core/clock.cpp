#include "core/clock.hpp"

#include <algorithm>
#include <limits>

namespace nib::core {
namespace {

class SteadyClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
  void wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                  TimePoint deadline) override {
    cv.wait_until(lock, deadline);
  }
  int poll_until(std::span<pollfd> fds, std::optional<TimePoint> deadline) override {
    int timeout_ms = -1;
    if (deadline) {
      // Rounded up: waking a little early would only mean another poll.
      const auto wait = std::chrono::ceil<std::chrono::milliseconds>(*deadline - now());
      timeout_ms = static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(
          wait.count(), 0, std::numeric_limits<int>::max()));
    }
    return ::poll(fds.data(), fds.size(), timeout_ms);
  }
};

}  // namespace

Clock& steady_clock() {
  static SteadyClock clock;
  return clock;
}

}  // namespace nib::core
