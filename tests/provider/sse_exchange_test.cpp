// exchange_sse's own guarantees, through the real providers against the mock server: what
// follows the end of a reply is never read, and hostile streams (endless, oversized, deeply
// nested) end with a clear error while memory stays bounded.

#include "provider/sse_exchange.hpp"

#include <gtest/gtest.h>

#include "provider/anthropic.hpp"
#include "provider/json_fields.hpp"
#include "provider/openai_chat.hpp"
#include "provider/openai_responses.hpp"
#include "provider/reply_builder.hpp"
#include "support/mock_anthropic_replies.hpp"
#include "support/mock_responses_replies.hpp"
#include "support/provider_fixture.hpp"
#include "support/text_match.hpp"
#include "util/json_depth.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;
using testing::contains;
using testing::MockAnthropicStream;
using testing::MockReply;
using testing::MockResponsesStream;

// One delta of an endless stream: large, so that reaching the limit takes few events.
constexpr std::size_t kEndlessPieceBytes = 64 * 1024;

class SseExchangeTest : public testing::ProviderFixture {
 protected:
  SseExchangeTest() : ProviderFixture("mock-model") {}

  core::AssistantMessage chat() {
    OpenAIChatProvider provider({server_.base_url(), "", {}});
    return stream_with(provider);
  }
  core::AssistantMessage responses() {
    OpenAIResponsesProvider provider({server_.base_url(), "", {}});
    return stream_with(provider);
  }
  core::AssistantMessage anthropic() {
    AnthropicProvider provider({server_.origin(), "", {}});
    return stream_with(provider);
  }

  std::size_t delta_bytes() const {
    std::size_t bytes = 0;
    for (const auto& event : deltas_) {
      if (const auto* text = std::get_if<core::TextDeltaEvent>(&event)) bytes += text->text.size();
      if (const auto* call = std::get_if<core::ToolCallDeltaEvent>(&event)) {
        bytes += call->fragment.size();
      }
    }
    return bytes;
  }
};

TEST_F(SseExchangeTest, BytesAfterTheEndEventInTheSameReadAreNeverRead) {
  // The end event and a cut-off line after it in one write: the line stays in the parser
  // when the transfer ends, and must not reach the assembler.
  const auto expect_whole = [](const core::AssistantMessage& message) {
    EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn) << message.error_message;
    EXPECT_EQ(core::assistant_text(message), "whole");
  };
  MockReply chat_reply = MockReply::text("whole");
  chat_reply.send_done = false;
  chat_reply.chunks.back() += "data: [DONE]\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"x";
  server_.enqueue(chat_reply);
  expect_whole(chat());

  MockReply responses_reply = testing::responses_text("whole");
  responses_reply.chunks.back() += "data: {\"type\":\"response.output_text.delta\",\"delt";
  server_.enqueue(responses_reply);
  expect_whole(responses());

  MockReply anthropic_reply = testing::anthropic_text("whole");
  anthropic_reply.chunks.back() += "event: ping\ndata: {\"type\": \"pi";
  server_.enqueue(anthropic_reply);
  expect_whole(anthropic());
}

TEST_F(SseExchangeTest, EndlessTextStopsAtTheReplyLimit) {
  MockReply reply;
  reply.send_done = false;
  reply.chunks.push_back(MockReply::sse(MockReply::delta_chunk({{"role", "assistant"}})));
  reply.repeat_forever =
      MockReply::sse(MockReply::delta_chunk({{"content", std::string(kEndlessPieceBytes, 'a')}}));
  server_.enqueue(reply);
  const core::AssistantMessage message = chat();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "limit of 32 MB")) << message.error_message;
  // Everything up to the limit was shown; nothing past it was held; the message keeps only the
  // start of it (the rest was freed before anything copied the reply).
  EXPECT_LE(delta_bytes(), kMaxReplyBytes);
  EXPECT_GT(delta_bytes(), kMaxReplyBytes - kEndlessPieceBytes - kBlockCostBytes);
  EXPECT_EQ(core::assistant_text(message), std::string(kKeptPastLimitBytes, 'a'));
}

TEST_F(SseExchangeTest, EndlessToolArgumentsStopAtTheReplyLimit) {
  MockAnthropicStream stream;
  stream.event("content_block_start",
               {{"index", 0},
                {"content_block",
                 {{"type", "tool_use"}, {"id", "toolu_1"}, {"name", "write"}, {"input", {}}}}});
  MockReply reply = stream.unfinished();
  reply.repeat_forever =
      "event: content_block_delta\ndata: " +
      json{{"type", "content_block_delta"},
           {"index", 0},
           {"delta",
            {{"type", "input_json_delta"}, {"partial_json", std::string(kEndlessPieceBytes, 'b')}}}}
          .dump() +
      "\n\n";
  server_.enqueue(reply);
  const core::AssistantMessage message = anthropic();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "limit of 32 MB")) << message.error_message;
  const auto calls = core::tool_calls_of(message);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_LE(delta_bytes(), kMaxReplyBytes);
  EXPECT_GT(delta_bytes(), kMaxReplyBytes - kEndlessPieceBytes - 2 * kBlockCostBytes);
  EXPECT_EQ(calls[0].arguments, "{}") << "a call past the limit never runs: it holds nothing";
}

TEST_F(SseExchangeTest, AnEndlessEventStopsAtTheEventLimit) {
  MockReply reply = MockResponsesStream().unfinished();
  reply.chunks.push_back("event: response.output_text.delta\ndata: {\"delta\":\"");
  reply.repeat_forever = std::string(1024 * 1024, 'c');  // no line end, ever
  server_.enqueue(reply);
  const core::AssistantMessage message = responses();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "stream event larger than 16 MB"))
      << message.error_message;
}

TEST_F(SseExchangeTest, ADeeplyNestedEventIsAStreamErrorNotACrash) {
  // Deep enough to overflow the stack of any recursive walk over the parsed value (the start
  // block's input is dumped back to text).
  constexpr std::size_t kLevels = 1'000'000;
  MockAnthropicStream stream;
  stream.text("before", 1);
  stream.raw(
      "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,"
      "\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\",\"input\":{\"a\":" +
      std::string(kLevels, '[') + std::string(kLevels, ']') + "}}}\n\n");
  server_.enqueue(stream.finished());
  const core::AssistantMessage message = anthropic();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message,
                       "nested deeper than " + std::to_string(util::kMaxJsonDepth) + " levels"))
      << message.error_message.substr(0, 300);
  EXPECT_LT(message.error_message.size(), 600u);  // the event is quoted, not copied whole
  EXPECT_EQ(core::assistant_text(message), "before");
}

}  // namespace
}  // namespace nib::provider
