#include "provider/anthropic_stream.hpp"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace nib::provider {
namespace {

using nlohmann::json;

// Feeds events to an assembler, as the service names them, and records the deltas it emits.
class AnthropicHarness {
 public:
  AnthropicHarness() : assembler_([this](const core::Event& event) { events.push_back(event); }) {}

  bool feed(const std::string& type, json fields = json::object()) {
    json payload = {{"type", type}};
    payload.update(fields);
    return assembler_.consume({type, payload.dump()});
  }
  bool start(int index, const json& block) {
    return feed("content_block_start", {{"index", index}, {"content_block", block}});
  }
  bool delta(int index, const json& delta) {
    return feed("content_block_delta", {{"index", index}, {"delta", delta}});
  }
  bool stop(int index) { return feed("content_block_stop", {{"index", index}}); }
  bool message_start(const json& usage = {{"input_tokens", 25}, {"output_tokens", 1}}) {
    return feed("message_start", {{"message",
                                   {{"id", "msg_1"},
                                    {"type", "message"},
                                    {"role", "assistant"},
                                    {"content", json::array()},
                                    {"model", "claude-test"},
                                    {"stop_reason", nullptr},
                                    {"usage", usage}}}});
  }
  bool message_delta(const std::string& stop_reason, const json& usage = {{"output_tokens", 15}}) {
    return feed(
        "message_delta",
        {{"delta", {{"stop_reason", stop_reason}, {"stop_sequence", nullptr}}}, {"usage", usage}});
  }
  bool text_block(int index, const std::string& text) {
    start(index, {{"type", "text"}, {"text", ""}});
    delta(index, {{"type", "text_delta"}, {"text", text}});
    return stop(index);
  }
  bool tool_block(int index, const std::string& id, const std::string& name,
                  const std::vector<std::string>& fragments) {
    start(index, {{"type", "tool_use"}, {"id", id}, {"name", name}, {"input", json::object()}});
    for (const auto& fragment : fragments) {
      delta(index, {{"type", "input_json_delta"}, {"partial_json", fragment}});
    }
    return stop(index);
  }
  AnthropicStreamAssembler& assembler() { return assembler_; }

  std::vector<core::Event> events;

 private:
  AnthropicStreamAssembler assembler_;
};

TEST(AnthropicStreamAssemblerTest, TextDeltasBecomeOneTextBlock) {
  AnthropicHarness harness;
  EXPECT_TRUE(harness.message_start());
  EXPECT_TRUE(harness.start(0, {{"type", "text"}, {"text", ""}}));
  EXPECT_TRUE(harness.feed("ping"));
  EXPECT_TRUE(harness.delta(0, {{"type", "text_delta"}, {"text", "Hello"}}));
  EXPECT_TRUE(harness.delta(0, {{"type", "text_delta"}, {"text", "!"}}));
  EXPECT_TRUE(harness.stop(0));
  EXPECT_FALSE(harness.assembler().complete());
  EXPECT_TRUE(harness.message_delta("end_turn"));
  EXPECT_TRUE(harness.assembler().complete());
  EXPECT_FALSE(harness.feed("message_stop"));
  EXPECT_TRUE(harness.assembler().error().empty());

  ASSERT_EQ(harness.events.size(), 2u);
  EXPECT_EQ(std::get<core::TextDeltaEvent>(harness.events[0]).text, "Hello");
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn);
  ASSERT_EQ(message.blocks.size(), 1u);
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[0]).text, "Hello!");
  EXPECT_EQ(message.usage.input_tokens, 25);
  EXPECT_EQ(message.usage.output_tokens, 15);
}

TEST(AnthropicStreamAssemblerTest, ToolUseInputIsAssembledFromFragmentsAfterText) {
  AnthropicHarness harness;
  harness.message_start();
  harness.text_block(0, "Let me look.");
  harness.tool_block(1, "toolu_a", "read", {"", "{\"path\":", " \"a.txt\"", "}"});
  harness.tool_block(2, "toolu_b", "grep", {"{\"pattern\":\"naïve\"}"});
  harness.message_delta("tool_use");

  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kToolUse);
  ASSERT_EQ(message.blocks.size(), 3u);
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[0]).text, "Let me look.");
  const auto calls = core::tool_calls_of(message);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].id, "toolu_a");
  EXPECT_EQ(calls[0].name, "read");
  EXPECT_EQ(calls[0].arguments, R"({"path": "a.txt"})");
  EXPECT_EQ(calls[1].arguments, R"({"pattern":"naïve"})");

  // Text delta, then per call: a first event with id and name, then each non-empty fragment.
  ASSERT_EQ(harness.events.size(), 7u);
  const auto& first = std::get<core::ToolCallDeltaEvent>(harness.events[1]);
  EXPECT_EQ(first.index, 0);
  EXPECT_EQ(first.id, "toolu_a");
  EXPECT_EQ(first.name, "read");
  EXPECT_EQ(first.fragment, "");
  const auto& later = std::get<core::ToolCallDeltaEvent>(harness.events[2]);
  EXPECT_EQ(later.index, 0);
  EXPECT_EQ(later.id, "");
  EXPECT_EQ(later.fragment, "{\"path\":");
  const auto& second = std::get<core::ToolCallDeltaEvent>(harness.events[5]);
  EXPECT_EQ(second.index, 1);
  EXPECT_EQ(second.id, "toolu_b");
}

TEST(AnthropicStreamAssemblerTest, DeltasFollowTheirBlockIndex) {
  AnthropicHarness harness;
  harness.message_start();
  // Blocks numbered from 3 and deltas for an unknown index: the index picks the block.
  harness.start(3, {{"type", "tool_use"}, {"id", "t1"}, {"name", "a"}, {"input", json::object()}});
  harness.start(4, {{"type", "text"}, {"text", ""}});
  harness.delta(4, {{"type", "text_delta"}, {"text", "text"}});
  harness.delta(3, {{"type", "input_json_delta"}, {"partial_json", "{\"x\":1}"}});
  harness.delta(9, {{"type", "text_delta"}, {"text", "lost"}});
  harness.message_delta("tool_use");
  const core::AssistantMessage message = harness.assembler().take_message();
  ASSERT_EQ(message.blocks.size(), 2u);
  EXPECT_EQ(std::get<core::ToolCall>(message.blocks[0]).arguments, "{\"x\":1}");
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[1]).text, "text");
}

TEST(AnthropicStreamAssemblerTest, ToolWithoutInputGetsAnEmptyObject) {
  AnthropicHarness harness;
  harness.message_start();
  harness.tool_block(0, "toolu_1", "now", {""});
  harness.message_delta("tool_use");
  EXPECT_EQ(core::tool_calls_of(harness.assembler().take_message())[0].arguments, "{}");
}

TEST(AnthropicStreamAssemblerTest, InputSentWholeAtTheStartIsKept) {
  AnthropicHarness harness;
  harness.message_start();
  harness.start(
      0, {{"type", "tool_use"}, {"id", "toolu_1"}, {"name", "ls"}, {"input", {{"path", "src"}}}});
  harness.stop(0);
  harness.start(
      1,
      {{"type", "tool_use"}, {"id", "toolu_2"}, {"name", "ls"}, {"input", {{"path", "preview"}}}});
  harness.delta(1, {{"type", "input_json_delta"}, {"partial_json", R"({"path":"real"})"}});
  harness.message_delta("tool_use");
  const auto calls = core::tool_calls_of(harness.assembler().take_message());
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(json::parse(calls[0].arguments), json({{"path", "src"}}));
  EXPECT_EQ(calls[1].arguments, R"({"path":"real"})");
  EXPECT_EQ(std::get<core::ToolCallDeltaEvent>(harness.events[0]).fragment, R"({"path":"src"})");
}

TEST(AnthropicStreamAssemblerTest, ThinkingWithSignatureAndRedactedThinking) {
  AnthropicHarness harness;
  harness.message_start();
  harness.start(0, {{"type", "thinking"}, {"thinking", ""}, {"signature", ""}});
  harness.delta(0, {{"type", "thinking_delta"}, {"thinking", "Let me "}});
  harness.delta(0, {{"type", "thinking_delta"}, {"thinking", "think."}});
  harness.delta(0, {{"type", "signature_delta"}, {"signature", "EqQBCgIYAhIM"}});
  harness.stop(0);
  harness.start(1, {{"type", "redacted_thinking"}, {"data", "EmwKAhgBEgy3va"}});
  harness.stop(1);
  harness.text_block(2, "42");
  harness.message_delta("end_turn");

  const core::AssistantMessage message = harness.assembler().take_message();
  ASSERT_EQ(message.blocks.size(), 3u);
  const auto& thinking = std::get<core::ThinkingBlock>(message.blocks[0]);
  EXPECT_EQ(thinking.text, "Let me think.");
  EXPECT_EQ(thinking.signature, "EqQBCgIYAhIM");
  EXPECT_FALSE(thinking.redacted);
  const auto& redacted = std::get<core::ThinkingBlock>(message.blocks[1]);
  EXPECT_TRUE(redacted.redacted);
  EXPECT_EQ(redacted.signature, "EmwKAhgBEgy3va");
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[2]).text, "42");
  ASSERT_EQ(harness.events.size(), 3u);
  EXPECT_EQ(std::get<core::ThinkingDeltaEvent>(harness.events[1]).text, "think.");
}

TEST(AnthropicStreamAssemblerTest, StopReasonsMapToStopReasons) {
  const auto finish = [](const std::string& reason, bool with_call) {
    AnthropicHarness harness;
    harness.message_start();
    harness.text_block(0, "some text");
    if (with_call) harness.tool_block(1, "toolu_1", "write", {R"({"path":"a","con)"});
    harness.message_delta(reason);
    return harness.assembler().take_message();
  };
  EXPECT_EQ(finish("end_turn", false).stop_reason, core::StopReason::kEndTurn);
  EXPECT_EQ(finish("stop_sequence", false).stop_reason, core::StopReason::kEndTurn);
  EXPECT_EQ(finish("pause_turn", false).stop_reason, core::StopReason::kEndTurn);
  EXPECT_EQ(finish("tool_use", true).stop_reason, core::StopReason::kToolUse);
  EXPECT_EQ(finish("end_turn", true).stop_reason, core::StopReason::kToolUse);
  const core::AssistantMessage cut = finish("max_tokens", true);
  EXPECT_EQ(cut.stop_reason, core::StopReason::kMaxTokens);
  EXPECT_EQ(core::tool_calls_of(cut)[0].arguments, R"({"path":"a","con)");
  EXPECT_EQ(finish("model_context_window_exceeded", false).stop_reason,
            core::StopReason::kMaxTokens);
  const core::AssistantMessage refused = finish("refusal", true);
  EXPECT_EQ(refused.stop_reason, core::StopReason::kError);
  EXPECT_NE(refused.error_message.find("refusal"), std::string::npos);
  EXPECT_EQ(core::assistant_text(refused), "some text");
}

TEST(AnthropicStreamAssemblerTest, UsageKeepsCacheCountsApartAndTakesTheLatestCounts) {
  AnthropicHarness harness;
  harness.message_start({{"input_tokens", 20},
                         {"cache_creation_input_tokens", 1500},
                         {"cache_read_input_tokens", 9000},
                         {"output_tokens", 1}});
  harness.text_block(0, "x");
  harness.message_delta(
      "end_turn",
      {{"output_tokens", 40}, {"input_tokens", 21}, {"cache_read_input_tokens", nullptr}});
  const core::Usage usage = harness.assembler().take_message().usage;
  EXPECT_EQ(usage.input_tokens, 21);
  EXPECT_EQ(usage.cache_write_tokens, 1500);
  EXPECT_EQ(usage.cache_read_tokens, 9000);  // a null count changes nothing
  EXPECT_EQ(usage.output_tokens, 40);
}

TEST(AnthropicStreamAssemblerTest, ErrorEventIsAnErrorWithItsKind) {
  AnthropicHarness harness;
  harness.message_start();
  harness.start(0, {{"type", "text"}, {"text", ""}});
  harness.delta(0, {{"type", "text_delta"}, {"text", "partial"}});
  EXPECT_FALSE(harness.feed(
      "error", {{"error", {{"type", "overloaded_error"}, {"message", "Overloaded"}}}}));
  EXPECT_EQ(harness.assembler().error(),
            "the service reported an error in the stream: Overloaded (overloaded_error)");
  EXPECT_EQ(harness.assembler().error_kind(), core::ErrorKind::kOverloaded);
  EXPECT_FALSE(harness.assembler().complete());
  EXPECT_EQ(core::assistant_text(harness.assembler().take_message()), "partial");
}

TEST(AnthropicStreamAssemblerTest, ErrorKindsFollowTheErrorType) {
  const auto kind_of = [](const std::string& type, const std::string& message) {
    AnthropicHarness harness;
    harness.feed("error", {{"error", {{"type", type}, {"message", message}}}});
    return harness.assembler().error_kind();
  };
  EXPECT_EQ(kind_of("rate_limit_error", "Number of requests exceeded"),
            core::ErrorKind::kRateLimited);
  EXPECT_EQ(kind_of("api_error", "Internal server error"), core::ErrorKind::kServer);
  EXPECT_EQ(kind_of("invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"),
            core::ErrorKind::kContextOverflow);
  EXPECT_EQ(kind_of("invalid_request_error", "bad"), core::ErrorKind::kOther);
}

TEST(AnthropicStreamAssemblerTest, NonJsonEventIsAnErrorNamingIt) {
  AnthropicHarness harness;
  EXPECT_FALSE(harness.assembler().consume({"message", "<html>oops</html>"}));
  EXPECT_NE(harness.assembler().error().find("not JSON: <html>oops</html>"), std::string::npos)
      << harness.assembler().error();
}

TEST(AnthropicStreamAssemblerTest, UnknownEventsBlocksAndDeltasAreIgnored) {
  AnthropicHarness harness;
  harness.message_start();
  EXPECT_TRUE(harness.feed("future_event", {{"anything", 1}}));
  EXPECT_TRUE(harness.start(0, {{"type", "server_tool_use"}, {"id", "srvtoolu_1"}}));
  EXPECT_TRUE(harness.delta(0, {{"type", "input_json_delta"}, {"partial_json", "{}"}}));
  EXPECT_TRUE(harness.start(1, {{"type", "text"}, {"text", ""}}));
  EXPECT_TRUE(harness.delta(1, {{"type", "citations_delta"}, {"citation", json::object()}}));
  EXPECT_TRUE(harness.delta(1, {{"type", "text_delta"}, {"text", "ok"}}));
  harness.message_delta("end_turn");
  const core::AssistantMessage message = harness.assembler().take_message();
  ASSERT_EQ(message.blocks.size(), 1u);
  EXPECT_EQ(core::assistant_text(message), "ok");
}

TEST(AnthropicStreamAssemblerTest, EmptyBlocksAreDropped) {
  AnthropicHarness harness;
  harness.message_start();
  harness.start(0, {{"type", "text"}, {"text", ""}});
  harness.stop(0);
  harness.text_block(1, "kept");
  harness.message_delta("end_turn");
  EXPECT_EQ(harness.assembler().take_message().blocks.size(), 1u);
}

TEST(AnthropicStreamAssemblerTest, TypeComesFromTheDataEvenWithoutAnEventLine) {
  AnthropicHarness harness;
  EXPECT_TRUE(harness.assembler().consume({"message", R"({"type":"message_start","message":{}})"}));
  EXPECT_FALSE(harness.assembler().consume({"message", R"({"type":"message_stop"})"}));
  EXPECT_TRUE(harness.assembler().complete());
  EXPECT_TRUE(harness.assembler().saw_events());
}

TEST(AnthropicStreamAssemblerTest, ASecondMessageStartStartsTheMessageAfresh) {
  AnthropicHarness harness;
  harness.message_start({{"input_tokens", 10}, {"output_tokens", 1}});
  harness.text_block(0, "Abandoned");
  harness.start(1, {{"type", "tool_use"}, {"id", "toolu_old"}, {"name", "write"}});
  harness.delta(1, {{"type", "input_json_delta"}, {"partial_json", R"({"path":"a","co)"}});
  harness.message_start({{"input_tokens", 12}, {"output_tokens", 1}});
  EXPECT_TRUE(std::holds_alternative<core::ReplyRestartEvent>(harness.events.back()));
  harness.delta(1, {{"type", "input_json_delta"}, {"partial_json", "ignored"}});  // no block 1
  harness.text_block(0, "Fresh");
  harness.message_delta("end_turn");
  EXPECT_FALSE(harness.feed("message_stop"));
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn);
  ASSERT_EQ(message.blocks.size(), 1u);
  EXPECT_EQ(assistant_text(message), "Fresh");
  EXPECT_EQ(message.usage.input_tokens, 12);
  // After the restart the deltas are the new message's only.
  ASSERT_TRUE(std::holds_alternative<core::TextDeltaEvent>(harness.events.back()));
  EXPECT_EQ(std::get<core::TextDeltaEvent>(harness.events.back()).text, "Fresh");
}

TEST(AnthropicStreamAssemblerTest, AMessageStartBeforeAnyDeltaNeedsNoRestartEvent) {
  AnthropicHarness harness;
  harness.message_start();
  harness.message_start();
  harness.text_block(0, "Only");
  ASSERT_EQ(harness.events.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<core::TextDeltaEvent>(harness.events[0]));
}

TEST(AnthropicStreamAssemblerTest, BlocksInsideMessageStartCount) {
  AnthropicHarness harness;
  harness.feed(
      "message_start",
      {{"message",
        {{"id", "msg_1"},
         {"content",
          json::array({{{"type", "thinking"}, {"thinking", "Pondered."}, {"signature", "sig"}},
                       {{"type", "text"}, {"text", "Hello"}}})},
         {"usage", {{"input_tokens", 3}}}}}});
  harness.delta(1, {{"type", "text_delta"}, {"text", " world"}});
  harness.tool_block(2, "toolu_1", "ls", {"{}"});
  harness.message_delta("tool_use");
  const core::AssistantMessage message = harness.assembler().take_message();
  ASSERT_EQ(message.blocks.size(), 3u);
  EXPECT_EQ(std::get<core::ThinkingBlock>(message.blocks[0]).signature, "sig");
  EXPECT_EQ(assistant_text(message), "Hello world");
  EXPECT_EQ(core::tool_calls_of(message).at(0).id, "toolu_1");
  EXPECT_EQ(message.stop_reason, core::StopReason::kToolUse);
}

TEST(AnthropicStreamAssemblerTest, NothingIsReadAfterMessageStop) {
  AnthropicHarness harness;
  harness.message_start();
  harness.text_block(0, "whole");
  harness.message_delta("end_turn");
  EXPECT_FALSE(harness.feed("message_stop"));
  EXPECT_FALSE(harness.assembler().consume({"message", "[DONE]"}));
  EXPECT_FALSE(harness.assembler().consume({"message_start", R"({"type":"message_sta)"}));
  EXPECT_FALSE(harness.message_start());
  EXPECT_EQ(harness.assembler().error(), "");
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), "whole");
}

TEST(AnthropicStreamAssemblerTest, UnreadableEventAfterTheStopReasonEndsTheReplyWithoutError) {
  AnthropicHarness harness;
  harness.message_start();
  harness.text_block(0, "whole");
  harness.message_delta("end_turn");
  EXPECT_FALSE(harness.assembler().consume({"message_stop", R"({"type":"mess)"}));
  EXPECT_TRUE(harness.assembler().complete());
  EXPECT_EQ(harness.assembler().error(), "");
}

TEST(AnthropicStreamAssemblerTest, TextBlocksAroundAToolCallAreSetApart) {
  AnthropicHarness harness;
  harness.message_start();
  harness.text_block(0, "Before.");
  harness.tool_block(1, "toolu_1", "ls", {"{}"});
  harness.text_block(2, "After.");
  std::string streamed;
  for (const auto& event : harness.events) {
    if (const auto* text = std::get_if<core::TextDeltaEvent>(&event)) streamed += text->text;
  }
  EXPECT_EQ(streamed, "Before.\n\nAfter.");
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), streamed);
}

}  // namespace
}  // namespace nib::provider
