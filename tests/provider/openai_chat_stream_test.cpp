#include "provider/openai_chat_stream.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace nib::provider {
namespace {

using nlohmann::json;

// Feeds chunk payloads to an assembler and records the deltas it emits.
class ChatHarness {
 public:
  ChatHarness() : assembler_([this](const core::Event& event) { events.push_back(event); }) {}

  bool feed(const json& payload) { return assembler_.consume({"message", payload.dump()}); }
  bool feed_raw(const std::string& data) { return assembler_.consume({"message", data}); }
  ChatStreamAssembler& assembler() { return assembler_; }

  std::vector<core::Event> events;

 private:
  ChatStreamAssembler assembler_;
};

json delta(const json& fields, const json& finish_reason = nullptr) {
  return {{"choices",
           json::array({{{"index", 0}, {"delta", fields}, {"finish_reason", finish_reason}}})}};
}

json call_fragment(const json& fragment) {
  return delta({{"tool_calls", json::array({fragment})}});
}

TEST(ChatStreamAssemblerTest, TextDeltasBecomeOneTextBlock) {
  ChatHarness harness;
  EXPECT_TRUE(harness.feed(delta({{"role", "assistant"}, {"content", ""}})));
  EXPECT_TRUE(harness.feed(delta({{"content", "Hel"}})));
  EXPECT_TRUE(harness.feed(delta({{"content", "lo"}})));
  EXPECT_FALSE(harness.assembler().complete());
  EXPECT_TRUE(harness.feed(delta(json::object(), "stop")));
  EXPECT_TRUE(harness.assembler().complete());
  EXPECT_FALSE(harness.feed_raw("[DONE]"));

  ASSERT_EQ(harness.events.size(), 2u);  // the empty first content is not a delta
  EXPECT_EQ(std::get<core::TextDeltaEvent>(harness.events[0]).text, "Hel");
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn);
  ASSERT_EQ(message.blocks.size(), 1u);
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[0]).text, "Hello");
}

TEST(ChatStreamAssemblerTest, ReasoningFieldsBecomeThinkingBeforeText) {
  ChatHarness harness;
  harness.feed(delta({{"reasoning_content", "Think"}}));
  harness.feed(delta({{"reasoning", "ing"}}));
  harness.feed(delta({{"reasoning_content", "."}, {"reasoning", "."}}));  // both: counted once
  harness.feed(delta({{"content", "Answer"}}, "stop"));
  const core::AssistantMessage message = harness.assembler().take_message();
  ASSERT_EQ(message.blocks.size(), 2u);
  EXPECT_EQ(std::get<core::ThinkingBlock>(message.blocks[0]).text, "Thinking.");
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[1]).text, "Answer");
  ASSERT_EQ(harness.events.size(), 4u);
  EXPECT_EQ(std::get<core::ThinkingDeltaEvent>(harness.events[1]).text, "ing");
}

TEST(ChatStreamAssemblerTest, RefusalIsText) {
  ChatHarness harness;
  harness.feed(delta({{"refusal", "I can't help with that."}}, "stop"));
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), "I can't help with that.");
}

TEST(ChatStreamAssemblerTest, ToolCallsAreAssembledByIndexFromInterleavedFragments) {
  ChatHarness harness;
  harness.feed(call_fragment({{"index", 0},
                              {"id", "call_a"},
                              {"type", "function"},
                              {"function", {{"name", "read"}, {"arguments", ""}}}}));
  harness.feed(call_fragment({{"index", 1},
                              {"id", "call_b"},
                              {"type", "function"},
                              {"function", {{"name", "ls"}, {"arguments", "{\"pa"}}}}));
  harness.feed(call_fragment({{"index", 0}, {"function", {{"arguments", "{\"path\":"}}}}));
  harness.feed(call_fragment({{"index", 1}, {"function", {{"arguments", "th\":\".\"}"}}}}));
  harness.feed(call_fragment({{"index", 0}, {"function", {{"arguments", "\"a.txt\"}"}}}}));
  harness.feed(delta(json::object(), "tool_calls"));

  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kToolUse);
  const auto calls = core::tool_calls_of(message);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].id, "call_a");
  EXPECT_EQ(calls[0].name, "read");
  EXPECT_EQ(calls[0].arguments, R"({"path":"a.txt"})");
  EXPECT_EQ(calls[1].id, "call_b");
  EXPECT_EQ(calls[1].arguments, R"({"path":"."})");

  ASSERT_EQ(harness.events.size(), 5u);
  const auto& first = std::get<core::ToolCallDeltaEvent>(harness.events[0]);
  EXPECT_EQ(first.index, 0);
  EXPECT_EQ(first.id, "call_a");
  EXPECT_EQ(first.name, "read");
  EXPECT_EQ(first.fragment, "");
  const auto& later = std::get<core::ToolCallDeltaEvent>(harness.events[2]);
  EXPECT_EQ(later.index, 0);
  EXPECT_EQ(later.id, "");
  EXPECT_EQ(later.name, "");
  EXPECT_EQ(later.fragment, "{\"path\":");
}

TEST(ChatStreamAssemblerTest, ServiceIndexesAreMappedToCallPositions) {
  ChatHarness harness;
  harness.feed(call_fragment({{"index", 3}, {"id", "x"}, {"function", {{"name", "a"}}}}));
  harness.feed(call_fragment({{"index", 7}, {"id", "y"}, {"function", {{"name", "b"}}}}));
  ASSERT_EQ(harness.events.size(), 2u);
  EXPECT_EQ(std::get<core::ToolCallDeltaEvent>(harness.events[0]).index, 0);
  EXPECT_EQ(std::get<core::ToolCallDeltaEvent>(harness.events[1]).index, 1);
}

TEST(ChatStreamAssemblerTest, ToleratesMissingIndexReusedIndexAndMissingIdsOrArguments) {
  ChatHarness harness;
  // No index at all: fragments continue the latest call.
  harness.feed(
      call_fragment({{"id", "c1"}, {"function", {{"name", "a"}, {"arguments", "{\"x\""}}}}));
  harness.feed(call_fragment({{"function", {{"arguments", ":1}"}}}}));
  // Index 0 again with a new id: a new call.
  harness.feed(call_fragment({{"index", 0}, {"id", "c2"}, {"function", {{"name", "b"}}}}));
  // No id anywhere, and no arguments.
  harness.feed(call_fragment({{"index", 5}, {"function", {{"name", "c"}}}}));
  harness.feed(delta(json::object(), "stop"));  // "stop" despite tool calls
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kToolUse);
  const auto calls = core::tool_calls_of(message);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].arguments, "{\"x\":1}");
  EXPECT_EQ(calls[1].id, "c2");
  EXPECT_EQ(calls[1].name, "b");
  EXPECT_EQ(calls[1].arguments, "{}");
  EXPECT_EQ(calls[2].id, "call_2");
  EXPECT_EQ(calls[2].name, "c");
  EXPECT_EQ(calls[2].arguments, "{}");
}

TEST(ChatStreamAssemblerTest, FinishReasonsMapToStopReasons) {
  const auto stop_reason_for = [](const char* reason, bool with_call) {
    ChatHarness harness;
    if (with_call)
      harness.feed(call_fragment({{"index", 0}, {"id", "c"}, {"function", {{"name", "a"}}}}));
    harness.feed(delta(json::object(), reason));
    return harness.assembler().take_message();
  };
  EXPECT_EQ(stop_reason_for("stop", false).stop_reason, core::StopReason::kEndTurn);
  EXPECT_EQ(stop_reason_for("tool_calls", true).stop_reason, core::StopReason::kToolUse);
  EXPECT_EQ(stop_reason_for("length", false).stop_reason, core::StopReason::kMaxTokens);
  EXPECT_EQ(stop_reason_for("length", true).stop_reason, core::StopReason::kMaxTokens);
  const core::AssistantMessage filtered = stop_reason_for("content_filter", false);
  EXPECT_EQ(filtered.stop_reason, core::StopReason::kError);
  EXPECT_NE(filtered.error_message.find("content_filter"), std::string::npos);
}

TEST(ChatStreamAssemblerTest, UsageSeparatesCachedPromptTokens) {
  ChatHarness harness;
  harness.feed(delta({{"content", "x"}}, "stop"));
  harness.feed({{"choices", json::array()},
                {"usage",
                 {{"prompt_tokens", 1000},
                  {"completion_tokens", 50},
                  {"total_tokens", 1050},
                  {"prompt_tokens_details", {{"cached_tokens", 800}}}}}});
  const core::Usage usage = harness.assembler().take_message().usage;
  EXPECT_EQ(usage.input_tokens, 200);
  EXPECT_EQ(usage.cache_read_tokens, 800);
  EXPECT_EQ(usage.output_tokens, 50);
  EXPECT_EQ(usage.cache_write_tokens, 0);
}

TEST(ChatStreamAssemblerTest, NonJsonEventIsAnErrorNamingIt) {
  ChatHarness harness;
  EXPECT_FALSE(harness.feed_raw("this is not json"));
  EXPECT_NE(harness.assembler().error().find("not JSON"), std::string::npos);
  EXPECT_NE(harness.assembler().error().find("this is not json"), std::string::npos);
}

TEST(ChatStreamAssemblerTest, ErrorObjectInTheStreamIsAnError) {
  ChatHarness harness;
  harness.feed(delta({{"content", "partial"}}));
  EXPECT_FALSE(harness.feed({{"error", {{"message", "overloaded"}, {"type", "server_error"}}}}));
  EXPECT_NE(harness.assembler().error().find("overloaded"), std::string::npos);
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), "partial");
}

TEST(ChatStreamAssemblerTest, ErrorEventNameIsAnError) {
  ChatHarness harness;
  EXPECT_FALSE(harness.assembler().consume({"error", R"({"message":"bad gateway"})"}));
  EXPECT_NE(harness.assembler().error().find("bad gateway"), std::string::npos);
}

TEST(ChatStreamAssemblerTest, ContentPartsSplitIntoThinkingAndText) {
  ChatHarness harness;
  harness.feed(delta(
      {{"content",
        json::array({{{"type", "thinking"},
                      {"thinking", json::array({{{"type", "text"}, {"text", "Think"}},
                                                {{"type", "reference"}, {"reference_ids", {1}}},
                                                {{"type", "text"}, {"text", "ing."}}})}}})}}));
  harness.feed(delta({{"content", json::array({{{"type", "unknown"}, {"text", "hidden"}},
                                               {{"type", "text"}, {"text", "Ans"}}})}}));
  harness.feed(delta({{"content", "wer"}}, "stop"));
  const core::AssistantMessage message = harness.assembler().take_message();
  ASSERT_EQ(message.blocks.size(), 2u);
  EXPECT_EQ(std::get<core::ThinkingBlock>(message.blocks[0]).text, "Thinking.");
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[1]).text, "Answer");
  EXPECT_FALSE(core::is_empty_reply(message));
}

TEST(ChatStreamAssemblerTest, OnlyChoiceZeroIsAssembled) {
  ChatHarness harness;
  const auto choice = [](int index, const json& fields, const json& finish = nullptr) {
    return json{{"choices",
                 json::array({{{"index", index}, {"delta", fields}, {"finish_reason", finish}}})}};
  };
  harness.feed(choice(1, {{"content", "other "}}));
  harness.feed(choice(0, {{"content", "mine"}}));
  harness.feed(choice(1, {{"tool_calls", json::array({{{"index", 0}, {"id", "x"}}})}}));
  harness.feed(choice(1, json::object(), "length"));
  EXPECT_FALSE(harness.assembler().complete());  // choice 1's finish is not the reply's
  // A chunk carrying both choices at once.
  harness.feed({{"choices", json::array({{{"index", 1}, {"delta", {{"content", "no"}}}},
                                         {{"index", 0}, {"delta", {{"content", "!"}}}}})}});
  harness.feed(choice(0, json::object(), "stop"));
  EXPECT_TRUE(harness.assembler().complete());
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(assistant_text(message), "mine!");
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn);
  EXPECT_TRUE(core::tool_calls_of(message).empty());
}

TEST(ChatStreamAssemblerTest, NothingIsReadAfterDone) {
  ChatHarness harness;
  harness.feed(delta({{"content", "whole"}}, "stop"));
  EXPECT_FALSE(harness.feed_raw("[DONE]"));
  EXPECT_FALSE(harness.feed_raw("{\"trunc"));
  EXPECT_FALSE(harness.feed(delta({{"content", " and more"}})));
  EXPECT_EQ(harness.assembler().error(), "");
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), "whole");
}

TEST(ChatStreamAssemblerTest, UnreadableEventAfterTheFinishEndsTheReplyWithoutError) {
  ChatHarness harness;
  harness.feed(delta({{"content", "whole"}}, "stop"));
  EXPECT_FALSE(harness.feed_raw("data that is cut"));
  EXPECT_TRUE(harness.assembler().complete());
  EXPECT_EQ(harness.assembler().error(), "");
}

TEST(ChatStreamAssemblerTest, DeeplyNestedEventIsRefused) {
  ChatHarness harness;
  const std::string deep = R"({"choices":[{"index":0,"delta":{"content":"x"},"x":)" +
                           std::string(300, '[') + std::string(300, ']') + "}]}";
  EXPECT_FALSE(harness.feed_raw(deep));
  EXPECT_NE(harness.assembler().error().find("nested deeper than 256 levels"), std::string::npos)
      << harness.assembler().error();
}

}  // namespace
}  // namespace nib::provider
