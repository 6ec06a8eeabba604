#include "provider/retrying_provider.hpp"

#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "support/fake_clock.hpp"
#include "support/scripted_provider.hpp"

namespace nib::provider {
namespace {

using namespace std::chrono_literals;
using testing::FakeClock;
using testing::ScriptedProvider;
using testing::text_reply;

core::AssistantMessage failure(core::ErrorKind kind, std::string error,
                               std::optional<std::chrono::milliseconds> retry_after = {}) {
  core::AssistantMessage message;
  message.stop_reason = core::StopReason::kError;
  message.error_kind = kind;
  message.error_message = std::move(error);
  message.retry_after = retry_after;
  return message;
}

class RetryingProviderTest : public ::testing::Test {
 protected:
  RetryingProviderTest() {
    auto owned = std::make_unique<ScriptedProvider>();
    scripted_ = owned.get();
    // A constant draw of 0.5 makes every backoff its nominal length.
    provider_ = std::make_unique<RetryingProvider>(std::move(owned), RetryPolicy{}, clock_,
                                                   [] { return 0.5; });
  }

  // Streams on a thread, so the test can advance the fake clock through the waits.
  std::future<core::AssistantMessage> start(std::stop_token stop = {}) {
    return std::async(std::launch::async, [this, stop] {
      return provider_->stream(request_, stop, [this](const core::Event& event) {
        if (const auto* retry = std::get_if<core::RetryEvent>(&event)) {
          const std::lock_guard lock(mutex_);
          retries_.push_back(*retry);
          retried_.notify_all();
        }
      });
    });
  }

  std::vector<core::RetryEvent> retries() {
    const std::lock_guard lock(mutex_);
    return retries_;
  }

  // Blocks until `count` retries were announced; the announced wait's deadline is fixed by then,
  // so advancing the clock past it ends that wait.
  void await_retries(std::size_t count) {
    std::unique_lock lock(mutex_);
    retried_.wait(lock, [&] { return retries_.size() >= count; });
  }

  FakeClock clock_;
  ScriptedProvider* scripted_ = nullptr;
  std::unique_ptr<RetryingProvider> provider_;
  std::vector<core::Message> history_;
  core::ProviderRequest request_{.messages = &history_};
  std::mutex mutex_;
  std::condition_variable retried_;
  std::vector<core::RetryEvent> retries_;
};

TEST_F(RetryingProviderTest, RetriesARateLimitAfterItsRetryAfter) {
  scripted_->push(failure(core::ErrorKind::kRateLimited, "HTTP 429", 3s));
  scripted_->push(text_reply("done"));
  auto reply = start();
  await_retries(1);
  ASSERT_EQ(retries().size(), 1u);
  EXPECT_EQ(retries()[0].attempt, 1);
  EXPECT_EQ(retries()[0].delay, 3s);
  EXPECT_EQ(retries()[0].reason, "HTTP 429");
  clock_.await_waits(1);
  clock_.advance(2999ms);
  // Woken by the advance 1 ms early, the retry goes back to waiting instead of sending.
  clock_.await_waits(2);
  EXPECT_EQ(scripted_->requests().size(), 1u);
  clock_.advance(1ms);
  const core::AssistantMessage message = reply.get();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn);
  EXPECT_EQ(core::assistant_text(message), "done");
}

TEST_F(RetryingProviderTest, BacksOffExponentiallyAndGivesUpAfterFourRetries) {
  for (int i = 0; i < 5; ++i) scripted_->push(failure(core::ErrorKind::kOverloaded, "overloaded"));
  auto reply = start();
  for (std::size_t retry = 1; retry <= 4; ++retry) {
    await_retries(retry);
    clock_.advance(retries().back().delay);
  }
  const core::AssistantMessage message = reply.get();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_message, "overloaded (gave up after 4 retries)");
  const auto events = retries();
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].delay, 1s);
  EXPECT_EQ(events[1].delay, 2s);
  EXPECT_EQ(events[2].delay, 4s);
  EXPECT_EQ(events[3].delay, 8s);
}

TEST_F(RetryingProviderTest, JitterSpreadsTheBackoff) {
  RetryingProvider low(std::make_unique<ScriptedProvider>(), RetryPolicy{}, clock_,
                       [] { return 0.0; });
  RetryingProvider high(std::make_unique<ScriptedProvider>(), RetryPolicy{}, clock_,
                        [] { return 0.999999; });
  const auto failed = failure(core::ErrorKind::kServer, "HTTP 502");
  EXPECT_EQ(low.delay_before(2, failed), 1500ms);   // 2 s x 0.75
  EXPECT_EQ(high.delay_before(2, failed), 2499ms);  // 2 s x ~1.25
}

TEST_F(RetryingProviderTest, DoesNotRetryPermanentFailuresOrStartedOutput) {
  EXPECT_EQ(provider_->delay_before(1, failure(core::ErrorKind::kOther, "HTTP 401")), std::nullopt);
  EXPECT_EQ(provider_->delay_before(1, failure(core::ErrorKind::kContextOverflow, "too long")),
            std::nullopt);
  auto partial = failure(core::ErrorKind::kOverloaded, "overloaded mid-stream");
  partial.blocks.push_back(core::TextBlock{"Half an ans"});
  EXPECT_EQ(provider_->delay_before(1, partial), std::nullopt);
  EXPECT_EQ(provider_->delay_before(1, failure(core::ErrorKind::kRateLimited, "slow", 10min)),
            std::nullopt)
      << "a Retry-After beyond the policy's limit is reported, not waited for";
  EXPECT_EQ(provider_->delay_before(1, failure(core::ErrorKind::kConnection, "refused")), 1s);

  scripted_->push(partial);
  const core::AssistantMessage message = start().get();
  EXPECT_EQ(message.error_message, "overloaded mid-stream");
  EXPECT_EQ(core::assistant_text(message), "Half an ans");
  EXPECT_TRUE(retries().empty());
}

TEST_F(RetryingProviderTest, AbortEndsTheWaitAtOnce) {
  scripted_->push(failure(core::ErrorKind::kRateLimited, "HTTP 429", 30s));
  std::stop_source stop;
  auto reply = start(stop.get_token());
  await_retries(1);
  stop.request_stop();
  const core::AssistantMessage message = reply.get();
  EXPECT_EQ(message.stop_reason, core::StopReason::kAborted);
  EXPECT_TRUE(message.blocks.empty());
  EXPECT_EQ(scripted_->requests().size(), 1u);
}

}  // namespace
}  // namespace nib::provider
