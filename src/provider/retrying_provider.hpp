#pragma once
// Retries a model request that failed for a passing reason: rate limits, an overloaded or
// failing service, a connection that failed before any reply. Wraps any Provider, so every wire
// protocol gets the same policy.
//
// Only failures before any output are retried: once text, thinking or a tool call has arrived,
// sending the request again would show the user a second, different reply, so such a failure
// is returned as it is (the partial message kept, marked as failed). Waits follow the
// service's Retry-After when it gives one, else exponential backoff with jitter; each wait is
// announced as a RetryEvent and ends at once when the run is aborted.
//
// Thread-safety: stream() may be called from several threads at once when the wrapped
// provider allows it; the random source is guarded.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

#include "core/clock.hpp"
#include "core/provider.hpp"

namespace nib::provider {

struct RetryPolicy {
  // Retries after the first attempt (so at most max_retries + 1 requests).
  int max_retries = 4;
  // The first backoff; each further one doubles, up to max_backoff.
  std::chrono::milliseconds first_backoff{1000};
  std::chrono::milliseconds max_backoff{30000};
  // A backoff is drawn uniformly from [1 - jitter, 1 + jitter] times its nominal length, so
  // that many clients failing together do not retry together.
  double jitter = 0.25;
  // A Retry-After longer than this is not waited for: the failure is returned (a user would
  // rather be told than watch nib sit for minutes).
  std::chrono::milliseconds max_retry_after{120000};
};

// Returns a number in [0, 1).
using RandomSource = std::function<double()>;

class RetryingProvider : public core::Provider {
 public:
  // `inner` does the requests; `clock` measures the waits (a fake one in tests); `random`
  // draws the jitter (defaults to a seeded std::mt19937_64).
  RetryingProvider(std::unique_ptr<core::Provider> inner, RetryPolicy policy = {},
                   core::Clock& clock = core::steady_clock(), RandomSource random = {});

  // See core::Provider. After the last retry fails, the error message ends with
  // "(gave up after N retries)". An abort during a wait returns kAborted at once.
  core::AssistantMessage stream(const core::ProviderRequest& request, std::stop_token stop,
                                const core::DeltaSink& on_delta) override;

  // The wait before retry number `retry` (1-based) after `failure`: its Retry-After, else the
  // jittered backoff. nullopt when the failure should not be retried.
  std::optional<std::chrono::milliseconds> delay_before(int retry,
                                                        const core::AssistantMessage& failure);

 private:
  // Waits until `deadline` on the clock; false when `stop` fired first.
  bool wait_until(core::Clock::TimePoint deadline, const std::stop_token& stop);

  std::unique_ptr<core::Provider> inner_;
  RetryPolicy policy_;
  core::Clock& clock_;
  std::mutex random_mutex_;
  RandomSource random_;
  // Waits sleep on these; they live as long as the provider, so a clock that notifies a
  // waiter late never touches a destroyed one.
  std::mutex wait_mutex_;
  std::condition_variable woken_;
};

}  // namespace nib::provider
