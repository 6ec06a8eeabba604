#include "provider/retrying_provider.hpp"

#include <algorithm>
#include <random>

namespace nib::provider {
namespace {

RandomSource seeded_random() {
  auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
  return [engine] { return std::uniform_real_distribution<double>(0.0, 1.0)(*engine); };
}

}  // namespace

RetryingProvider::RetryingProvider(std::unique_ptr<core::Provider> inner, RetryPolicy policy,
                                   core::Clock& clock, RandomSource random)
    : inner_(std::move(inner)),
      policy_(policy),
      clock_(clock),
      random_(random ? std::move(random) : seeded_random()) {}

std::optional<std::chrono::milliseconds> RetryingProvider::delay_before(
    int retry, const core::AssistantMessage& failure) {
  const bool output_started = !failure.blocks.empty();
  if (failure.stop_reason != core::StopReason::kError || !core::is_transient(failure.error_kind) ||
      output_started || retry > policy_.max_retries) {
    return std::nullopt;
  }
  if (failure.retry_after) {
    if (*failure.retry_after > policy_.max_retry_after) return std::nullopt;
    return *failure.retry_after;
  }
  const auto doublings = std::min(retry - 1, 20);
  const std::chrono::milliseconds nominal = std::min<std::chrono::milliseconds>(
      policy_.first_backoff * (1L << doublings), policy_.max_backoff);
  double draw = 0;
  {
    const std::lock_guard lock(random_mutex_);
    draw = random_();
  }
  const double factor = 1.0 - policy_.jitter + 2.0 * policy_.jitter * draw;
  return std::chrono::milliseconds(
      static_cast<std::chrono::milliseconds::rep>(static_cast<double>(nominal.count()) * factor));
}

bool RetryingProvider::wait_until(core::Clock::TimePoint deadline, const std::stop_token& stop) {
  const std::stop_callback on_stop(stop, [this] {
    // Taking the lock orders the notification after the waiter's check of stop_requested().
    const std::lock_guard lock(wait_mutex_);
    woken_.notify_all();
  });
  std::unique_lock lock(wait_mutex_);
  while (!stop.stop_requested() && clock_.now() < deadline) {
    clock_.wait_until(woken_, lock, deadline);
  }
  return !stop.stop_requested();
}

core::AssistantMessage RetryingProvider::stream(const core::ProviderRequest& request,
                                                std::stop_token stop,
                                                const core::DeltaSink& on_delta) {
  for (int retry = 1;; ++retry) {
    core::AssistantMessage reply = inner_->stream(request, stop, on_delta);
    const auto delay = delay_before(retry, reply);
    if (!delay) {
      if (retry > 1 && reply.stop_reason == core::StopReason::kError) {
        reply.error_message +=
            " (gave up after " + std::to_string(retry - 1) + (retry == 2 ? " retry)" : " retries)");
      }
      return reply;
    }
    // The wait is measured from the failure, before anyone hears of it.
    const auto deadline = clock_.now() + *delay;
    if (on_delta) on_delta(core::RetryEvent{retry, *delay, reply.error_message});
    if (!wait_until(deadline, stop)) {
      core::AssistantMessage aborted;
      aborted.stop_reason = core::StopReason::kAborted;
      aborted.model = reply.model;
      aborted.api = reply.api;
      return aborted;
    }
  }
}

}  // namespace nib::provider
