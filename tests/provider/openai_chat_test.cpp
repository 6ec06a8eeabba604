// OpenAIChatProvider end to end through libcurl against the in-repo mock server.

#include "provider/openai_chat.hpp"

#include <gtest/gtest.h>

#include <latch>
#include <map>
#include <thread>

#include "support/mock_model_server.hpp"
#include "support/provider_fixture.hpp"
#include "support/text_match.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;
using testing::MockReply;
using testing::MockToolCall;

using testing::contains;

class OpenAIChatProviderTest : public testing::ProviderFixture {
 protected:
  OpenAIChatProviderTest() : ProviderFixture("mock-model") {}

  OpenAIChatProvider provider(std::string api_key = "sk-test") {
    return OpenAIChatProvider({server_.base_url(), std::move(api_key), {}});
  }

  core::AssistantMessage run(std::stop_token stop = {}) {
    auto under_test = provider();
    return stream_with(under_test, stop);
  }
};

TEST_F(OpenAIChatProviderTest, StreamsATextReply) {
  server_.enqueue(MockReply::text("Hello there, grüß dich!", 6));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn) << message.error_message;
  EXPECT_EQ(message.model, "mock-model");
  ASSERT_EQ(message.blocks.size(), 1u);
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[0]).text, "Hello there, grüß dich!");
  EXPECT_EQ(delta_text(), "Hello there, grüß dich!");
  EXPECT_GE(deltas_.size(), 6u);
  EXPECT_EQ(message.usage.input_tokens, 12);
  EXPECT_EQ(message.usage.output_tokens, 7);
}

TEST_F(OpenAIChatProviderTest, SendsTheRequestWithHeaders) {
  server_.enqueue(MockReply::text("ok"));
  request_.model.max_output_tokens = 100;
  OpenAIChatProvider with_headers({server_.base_url() + "/", "sk-secret", {{"X-Extra", "yes"}}});
  with_headers.stream(request_, {}, {});
  ASSERT_TRUE(server_.wait_for_requests(1));
  const testing::RecordedRequest recorded = server_.requests().at(0);
  EXPECT_EQ(recorded.path, "/v1/chat/completions");
  EXPECT_EQ(recorded.header("authorization"), "Bearer sk-secret");
  EXPECT_EQ(recorded.header("accept"), "text/event-stream");
  EXPECT_EQ(recorded.header("content-type"), "application/json");
  EXPECT_EQ(recorded.header("x-extra"), "yes");
  EXPECT_EQ(recorded.body["model"], "mock-model");
  EXPECT_EQ(recorded.body["stream"], true);
  EXPECT_EQ(recorded.body["max_tokens"], 100);  // a compatible server, not api.openai.com
  EXPECT_EQ(recorded.body["messages"][0], json({{"role", "system"}, {"content", "Be brief."}}));
  EXPECT_EQ(recorded.body["messages"][1], json({{"role", "user"}, {"content", "hello"}}));
}

TEST_F(OpenAIChatProviderTest, SendsNoAuthorizationWithoutKey) {
  server_.enqueue(MockReply::text("ok"));
  provider("").stream(request_, {}, {});
  ASSERT_TRUE(server_.wait_for_requests(1));
  EXPECT_EQ(server_.requests().at(0).header("authorization"), "");
}

TEST_F(OpenAIChatProviderTest, AssemblesParallelToolCallsFromTinyFragments) {
  const std::vector<MockToolCall> calls = {
      {"call_1", "read", R"({"path":"src/main.cpp","offset":10})"},
      {"call_2", "grep", R"({"pattern":"naïve \\d+ 日本語","path":"."})"},
      {"call_3", "ls", "{}"},
      {"call_4", "bash", R"({"command":"echo \"a b\" && ls -la | head -n 3"})"},
      {"call_5", "write", R"({"path":"emoji.txt","content":"😀 line\nnext"})"},
  };
  MockReply reply = MockReply::tool_calls(calls, 3);
  reply.max_write_bytes = 5;  // transport pieces cut lines and UTF-8 sequences too
  server_.enqueue(reply);
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kToolUse) << message.error_message;
  const auto received = core::tool_calls_of(message);
  ASSERT_EQ(received.size(), calls.size());
  std::map<int, std::string> streamed;
  for (const auto& event : deltas_) {
    const auto& delta = std::get<core::ToolCallDeltaEvent>(event);
    streamed[delta.index] += delta.fragment;
  }
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(received[i].id, calls[i].id);
    EXPECT_EQ(received[i].name, calls[i].name);
    EXPECT_EQ(received[i].arguments, calls[i].arguments);
    EXPECT_EQ(streamed[static_cast<int>(i)], calls[i].arguments);
  }
}

TEST_F(OpenAIChatProviderTest, LengthFinishKeepsTruncatedToolCalls) {
  server_.enqueue(MockReply::tool_calls({{"call_1", "write", R"({"path":"a","con)"}}, 4, "length"));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kMaxTokens);
  const auto received = core::tool_calls_of(message);
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].arguments, R"({"path":"a","con)");
}

TEST_F(OpenAIChatProviderTest, ReasoningDeltasBecomeThinking) {
  server_.enqueue(MockReply::events({
      MockReply::delta_chunk({{"role", "assistant"}, {"reasoning_content", "Let me "}}),
      MockReply::delta_chunk({{"reasoning_content", "think."}}),
      MockReply::delta_chunk({{"content", "42"}}, "stop"),
      MockReply::usage_chunk({}),
  }));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn);
  ASSERT_EQ(message.blocks.size(), 2u);
  EXPECT_EQ(std::get<core::ThinkingBlock>(message.blocks[0]).text, "Let me think.");
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[1]).text, "42");
  ASSERT_EQ(deltas_.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<core::ThinkingDeltaEvent>(deltas_[0]));
}

TEST_F(OpenAIChatProviderTest, MapsUsageWithCachedTokens) {
  server_.enqueue(MockReply::text("ok", 1, "stop", {1500, 40, 1024}));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.usage.input_tokens, 476);
  EXPECT_EQ(message.usage.cache_read_tokens, 1024);
  EXPECT_EQ(message.usage.output_tokens, 40);
}

TEST_F(OpenAIChatProviderTest, Http500ReportsStatusUrlAndServiceMessage) {
  server_.enqueue(MockReply::http_error(
      500, R"({"error":{"message":"The server had an error","type":"server_error"}})"));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "HTTP 500 from " + server_.base_url() +
                                                  "/chat/completions: The server had an error"))
      << message.error_message;
  EXPECT_TRUE(message.blocks.empty());
}

TEST_F(OpenAIChatProviderTest, Http429ReportsBodyExcerptAndRetryAfter) {
  server_.enqueue(
      MockReply::http_error(429, "Too many requests, slow down.\n", {{"Retry-After", "3"}}));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "HTTP 429")) << message.error_message;
  EXPECT_TRUE(contains(message.error_message, "Too many requests, slow down."))
      << message.error_message;
  EXPECT_TRUE(contains(message.error_message, "Retry-After: 3")) << message.error_message;
}

TEST_F(OpenAIChatProviderTest, LongErrorBodyIsCutShort) {
  server_.enqueue(MockReply::http_error(502, std::string(100000, 'x')));
  const core::AssistantMessage message = run();
  EXPECT_TRUE(contains(message.error_message, "HTTP 502"));
  EXPECT_LT(message.error_message.size(), 1200u);
}

TEST_F(OpenAIChatProviderTest, NoScriptedReplyLeftIsAnHttpError) {
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "mock: no scripted reply left"));
}

TEST_F(OpenAIChatProviderTest, DisconnectMidStreamIsAnErrorKeepingPartialText) {
  server_.enqueue(MockReply::text("Partial answer that never ends", 5).disconnect_after(3));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "stream ended before the reply was complete"))
      << message.error_message;
  EXPECT_FALSE(assistant_text(message).empty());
  EXPECT_EQ(assistant_text(message), delta_text());
}

TEST_F(OpenAIChatProviderTest, CleanEndWithoutFinishIsAnError) {
  MockReply reply = MockReply::text("cut", 1);
  reply.chunks.resize(2);  // role and content chunks only
  reply.send_done = false;
  server_.enqueue(reply);
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_message, "stream ended before the reply was complete");
  EXPECT_EQ(assistant_text(message), "cut");
}

TEST_F(OpenAIChatProviderTest, FinishWithoutDoneIsComplete) {
  MockReply reply = MockReply::text("fine");
  reply.send_done = false;
  server_.enqueue(reply);
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn) << message.error_message;
  EXPECT_EQ(assistant_text(message), "fine");
}

TEST_F(OpenAIChatProviderTest, ErrorInsideTheStreamIsAnError) {
  MockReply reply = MockReply::text("so far", 1);
  reply.chunks.resize(2);
  reply.chunks.push_back(MockReply::sse({{"error", {{"message", "model overloaded"}}}}));
  server_.enqueue(reply);
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "model overloaded")) << message.error_message;
  EXPECT_EQ(assistant_text(message), "so far");
}

TEST_F(OpenAIChatProviderTest, NonJsonDataIsAnErrorNamingIt) {
  MockReply reply;
  reply.chunks = {"data: <html>oops</html>\n\n"};
  server_.enqueue(reply);
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "not JSON: <html>oops</html>"))
      << message.error_message;
}

TEST_F(OpenAIChatProviderTest, UnreachableServerIsAnError) {
  // Port 1 on loopback: nothing listens there, so the connection is refused at once.
  OpenAIChatProvider unreachable({"http://127.0.0.1:1/v1", "", {}});
  const core::AssistantMessage message = unreachable.stream(request_, {}, {});
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(
      contains(message.error_message, "request to http://127.0.0.1:1/v1/chat/completions failed"))
      << message.error_message;
}

TEST_F(OpenAIChatProviderTest, AbortDuringAHeldStreamReturnsAbortedWithPartialText) {
  server_.enqueue(MockReply::text("first part, then silence", 4).hold_after_chunks(2));
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
  EXPECT_FALSE(assistant_text(message).empty());
}

TEST_F(OpenAIChatProviderTest, StopRequestedBeforehandAbortsAtOnce) {
  server_.enqueue(MockReply::text("never read"));
  std::stop_source stop;
  stop.request_stop();
  const core::AssistantMessage message = run(stop.get_token());
  EXPECT_EQ(message.stop_reason, core::StopReason::kAborted);
  EXPECT_TRUE(message.blocks.empty());
}

TEST_F(OpenAIChatProviderTest, ReleasedHoldCompletesTheReply) {
  server_.enqueue(MockReply::text("held then done", 3).hold_after_chunks(2));
  server_.release();
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn) << message.error_message;
  EXPECT_EQ(assistant_text(message), "held then done");
}

}  // namespace
}  // namespace nib::provider

namespace nib::provider {
namespace {

TEST(OpenAIChatConnectionTest, LaterRequestsReuseTheConnection) {
  testing::MockModelServer server;
  server.enqueue(testing::MockReply::text("one"));
  server.enqueue(testing::MockReply::text("two"));
  std::vector<core::Message> history{core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request;
  request.model.id = "mock-model";
  request.messages = &history;
  OpenAIChatProvider provider({server.base_url(), "", {}});
  const auto ignore = [](const core::Event&) {};
  EXPECT_EQ(provider.stream(request, {}, ignore).stop_reason, core::StopReason::kEndTurn);
  EXPECT_EQ(provider.stream(request, {}, ignore).stop_reason, core::StopReason::kEndTurn);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].remote_port, requests[1].remote_port);
}

}  // namespace
}  // namespace nib::provider
