// AnthropicProvider end to end through libcurl against the in-repo mock server speaking the
// Messages streaming protocol.

#include "provider/anthropic.hpp"

#include <gtest/gtest.h>

#include <latch>
#include <map>
#include <thread>

#include "support/mock_anthropic_replies.hpp"
#include "support/mock_model_server.hpp"
#include "support/provider_fixture.hpp"
#include "support/text_match.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;
using testing::MockAnthropicStream;
using testing::MockReply;
using testing::MockToolCall;

using testing::contains;

class AnthropicProviderTest : public testing::ProviderFixture {
 protected:
  AnthropicProviderTest() : ProviderFixture("claude-sonnet-4-5") {}

  AnthropicProvider provider(std::string api_key = "sk-ant-test") {
    return AnthropicProvider({server_.origin(), std::move(api_key), {}});
  }

  core::AssistantMessage run(std::stop_token stop = {}) {
    auto under_test = provider();
    return stream_with(under_test, stop);
  }
};

TEST_F(AnthropicProviderTest, StreamsATextReplySplitAcrossWrites) {
  MockReply reply = testing::anthropic_text("Hello there, grüß dich! 日本語 😀", 6);
  reply.max_write_bytes = 3;  // transport pieces cut lines and UTF-8 sequences
  server_.enqueue(reply);
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn) << message.error_message;
  EXPECT_EQ(message.model, "claude-sonnet-4-5");
  EXPECT_EQ(message.api, kAnthropicApi);
  ASSERT_EQ(message.blocks.size(), 1u);
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[0]).text, "Hello there, grüß dich! 日本語 😀");
  EXPECT_EQ(delta_text(), "Hello there, grüß dich! 日本語 😀");
  EXPECT_GE(deltas_.size(), 6u);
  EXPECT_EQ(message.usage.input_tokens, 12);
  EXPECT_EQ(message.usage.output_tokens, 7);
}

TEST_F(AnthropicProviderTest, SendsTheRequestWithAnthropicHeaders) {
  server_.enqueue(testing::anthropic_text("ok"));
  AnthropicProvider with_headers(
      {server_.origin() + "/", "sk-ant-secret", {{"anthropic-beta", "some-feature"}}});
  with_headers.stream(request_, {}, {});
  ASSERT_TRUE(server_.wait_for_requests(1));
  const testing::RecordedRequest recorded = server_.requests().at(0);
  EXPECT_EQ(recorded.path, "/v1/messages");
  EXPECT_EQ(recorded.header("x-api-key"), "sk-ant-secret");
  EXPECT_EQ(recorded.header("authorization"), "");
  EXPECT_EQ(recorded.header("anthropic-version"), "2023-06-01");
  EXPECT_EQ(recorded.header("anthropic-beta"), "some-feature");
  EXPECT_EQ(recorded.header("content-type"), "application/json");
  EXPECT_EQ(recorded.header("accept"), "text/event-stream");
  EXPECT_EQ(recorded.body["model"], "claude-sonnet-4-5");
  EXPECT_EQ(recorded.body["stream"], true);
  EXPECT_EQ(recorded.body["max_tokens"], kClaudeCurrentMaxTokens);
  EXPECT_EQ(recorded.body["system"][0]["text"], "Be brief.");
  EXPECT_EQ(recorded.body["messages"][0]["content"][0]["text"], "hello");
}

TEST_F(AnthropicProviderTest, BaseUrlMayEndWithV1AndKeyMayBeEmpty) {
  server_.enqueue(testing::anthropic_text("ok"));
  AnthropicProvider gateway({server_.origin() + "/v1/", "", {}});
  EXPECT_EQ(gateway.url(), server_.origin() + "/v1/messages");
  EXPECT_EQ(gateway.stream(request_, {}, {}).stop_reason, core::StopReason::kEndTurn);
  ASSERT_TRUE(server_.wait_for_requests(1));
  EXPECT_EQ(server_.requests().at(0).path, "/v1/messages");
  EXPECT_EQ(server_.requests().at(0).header("x-api-key"), "");
  EXPECT_EQ(AnthropicProvider(AnthropicConfig{}).url(), "https://api.anthropic.com/v1/messages");
}

TEST_F(AnthropicProviderTest, AssemblesToolCallsFromTinyFragments) {
  const std::vector<MockToolCall> calls = {
      {"toolu_01", "read", R"({"path":"src/main.cpp","offset":10})"},
      {"toolu_02", "grep", R"({"pattern":"naïve \\d+ 日本語","path":"."})"},
      {"toolu_03", "ls", ""},
      {"toolu_04", "write", R"({"path":"emoji.txt","content":"😀 line\nnext"})"},
  };
  MockReply reply = testing::anthropic_tool_use(calls, 3, "Let me check.");
  reply.max_write_bytes = 5;
  server_.enqueue(reply);
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kToolUse) << message.error_message;
  EXPECT_EQ(core::assistant_text(message), "Let me check.");
  const auto received = core::tool_calls_of(message);
  ASSERT_EQ(received.size(), calls.size());
  std::map<int, std::string> streamed;
  for (const auto& event : deltas_) {
    if (const auto* delta = std::get_if<core::ToolCallDeltaEvent>(&event)) {
      streamed[delta->index] += delta->fragment;
    }
  }
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(received[i].id, calls[i].id);
    EXPECT_EQ(received[i].name, calls[i].name);
    const std::string expected = calls[i].arguments.empty() ? "{}" : calls[i].arguments;
    EXPECT_EQ(received[i].arguments, expected);
    EXPECT_EQ(streamed[static_cast<int>(i)], calls[i].arguments);
  }
}

TEST_F(AnthropicProviderTest, MaxTokensKeepsTheTruncatedToolCall) {
  server_.enqueue(MockAnthropicStream()
                      .tool_use({"toolu_1", "write", R"({"path":"a","con)"}, 4)
                      .finished("max_tokens"));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kMaxTokens);
  ASSERT_EQ(core::tool_calls_of(message).size(), 1u);
  EXPECT_EQ(core::tool_calls_of(message)[0].arguments, R"({"path":"a","con)");
}

TEST_F(AnthropicProviderTest, ThinkingComesBackSignedAndIsReplayedNextTurn) {
  server_.enqueue(testing::anthropic_thinking_then_text("Let me think about it.", "sig-abc", "42"));
  server_.enqueue(testing::anthropic_text("done"));
  request_.model.reasoning = true;
  request_.thinking = core::ThinkingLevel::kLow;
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn) << message.error_message;
  ASSERT_EQ(message.blocks.size(), 2u);
  const auto& thinking = std::get<core::ThinkingBlock>(message.blocks[0]);
  EXPECT_EQ(thinking.text, "Let me think about it.");
  EXPECT_EQ(thinking.signature, "sig-abc");
  ASSERT_TRUE(std::holds_alternative<core::ThinkingDeltaEvent>(deltas_.at(0)));

  history_.push_back(message);
  history_.emplace_back(std::in_place_type<core::UserMessage>, core::text_content("and?"));
  EXPECT_EQ(run().stop_reason, core::StopReason::kEndTurn);
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].body["thinking"],
            json({{"type", "enabled"}, {"budget_tokens", kThinkingBudgetLow}}));
  EXPECT_EQ(requests[1].body["messages"][1]["content"][0],
            json({{"type", "thinking"},
                  {"thinking", "Let me think about it."},
                  {"signature", "sig-abc"}}));
}

TEST_F(AnthropicProviderTest, PingsAndCacheUsageArrive) {
  server_.enqueue(
      MockAnthropicStream({100, 30, 5000, 800}).ping().text("cached").ping().ping().finished());
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn) << message.error_message;
  EXPECT_EQ(message.usage.input_tokens, 100);
  EXPECT_EQ(message.usage.output_tokens, 30);
  EXPECT_EQ(message.usage.cache_read_tokens, 5000);
  EXPECT_EQ(message.usage.cache_write_tokens, 800);
}

TEST_F(AnthropicProviderTest, OverloadedErrorEventMidStreamKeepsPartialText) {
  server_.enqueue(testing::anthropic_error("overloaded_error", "Overloaded", "so far"));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_kind, core::ErrorKind::kOverloaded);
  EXPECT_TRUE(contains(message.error_message, "Overloaded")) << message.error_message;
  EXPECT_EQ(core::assistant_text(message), "so far");
}

TEST_F(AnthropicProviderTest, Http529IsOverloadedWithRetryAfter) {
  server_.enqueue(MockReply::http_error(
      529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})",
      {{"Retry-After", "3"}}));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_kind, core::ErrorKind::kOverloaded);
  EXPECT_TRUE(contains(message.error_message,
                       "HTTP 529 from " + server_.origin() + "/v1/messages: Overloaded"))
      << message.error_message;
  ASSERT_TRUE(message.retry_after.has_value());
  EXPECT_EQ(*message.retry_after, std::chrono::seconds(3));
}

TEST_F(AnthropicProviderTest, Http429IsRateLimited) {
  server_.enqueue(MockReply::http_error(
      429,
      R"({"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}})",
      {{"retry-after", "20"}}));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.error_kind, core::ErrorKind::kRateLimited);
  EXPECT_EQ(message.retry_after, std::chrono::seconds(20));
  EXPECT_TRUE(contains(message.error_message, "per-minute rate limit")) << message.error_message;
}

TEST_F(AnthropicProviderTest, PromptTooLongIsAContextOverflow) {
  server_.enqueue(MockReply::http_error(
      400,
      R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}})"));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_kind, core::ErrorKind::kContextOverflow);
  EXPECT_TRUE(contains(message.error_message, "prompt is too long")) << message.error_message;
}

TEST_F(AnthropicProviderTest, DisconnectMidStreamIsAnErrorKeepingPartialText) {
  MockAnthropicStream stream;
  stream.text("Partial answer that never ends", 5);
  server_.enqueue(stream.unfinished().disconnect_after(6));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "stream ended before the reply was complete"))
      << message.error_message;
  EXPECT_FALSE(core::assistant_text(message).empty());
  EXPECT_EQ(core::assistant_text(message), delta_text());
}

TEST_F(AnthropicProviderTest, CleanEndWithoutMessageStopIsAnError) {
  server_.enqueue(MockAnthropicStream().text("cut").unfinished());
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_message, "stream ended before the reply was complete");
  EXPECT_EQ(core::assistant_text(message), "cut");
}

TEST_F(AnthropicProviderTest, AbortDuringAHeldStreamReturnsAbortedWithPartialText) {
  MockAnthropicStream stream;
  stream.text("first part, then silence", 4);
  const std::size_t held_after = stream.chunk_count() - 2;  // before the last delta and stop
  server_.enqueue(stream.finished().hold_after_chunks(held_after));
  std::stop_source stop;
  std::latch first_delta(1);
  core::AssistantMessage message;
  std::thread streamer([&] {
    bool counted = false;
    message = provider().stream(request_, stop.get_token(), [&](const core::Event&) {
      if (!counted) first_delta.count_down();
      counted = true;
    });
  });
  first_delta.wait();
  stop.request_stop();
  streamer.join();  // returns without the server ever releasing the stream
  EXPECT_EQ(message.stop_reason, core::StopReason::kAborted);
  EXPECT_FALSE(core::assistant_text(message).empty());
}

TEST_F(AnthropicProviderTest, LaterRequestsReuseTheConnection) {
  server_.enqueue(testing::anthropic_text("one"));
  server_.enqueue(testing::anthropic_text("two"));
  AnthropicProvider shared = provider();
  const auto ignore = [](const core::Event&) {};
  EXPECT_EQ(shared.stream(request_, {}, ignore).stop_reason, core::StopReason::kEndTurn);
  EXPECT_EQ(shared.stream(request_, {}, ignore).stop_reason, core::StopReason::kEndTurn);
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].remote_port, requests[1].remote_port);
}

}  // namespace
}  // namespace nib::provider
