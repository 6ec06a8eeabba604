#include "provider/openai_responses_stream.hpp"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "provider/openai_responses_request.hpp"
#include "support/mock_responses_replies.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;
using testing::MockReasoning;
using testing::MockReply;
using testing::MockResponsesStream;
using testing::MockToolCall;

// Feeds events to an assembler and records the deltas it emits.
class ResponsesHarness {
 public:
  ResponsesHarness() : assembler_([this](const core::Event& event) { events.push_back(event); }) {}

  // One event as the service writes it: its type both as the SSE event name and in the data.
  bool feed(const std::string& type, json fields = json::object()) {
    fields["type"] = type;
    return assembler_.consume({type, fields.dump()});
  }
  bool feed_raw(const std::string& event, const std::string& data) {
    return assembler_.consume({event, data});
  }
  // Every event of a mock reply, through the SSE parser; returns consume()'s last answer.
  bool feed_reply(const MockReply& reply) {
    net::SseParser parser;
    bool more = true;
    for (const std::string& chunk : reply.chunks) {
      for (const net::SseEvent& event : parser.feed(chunk)) {
        if (!more) ADD_FAILURE() << "event after the assembler asked to stop: " << event.data;
        more = assembler_.consume(event);
      }
    }
    return more;
  }
  ResponsesStreamAssembler& assembler() { return assembler_; }

  std::string text_deltas() const {
    std::string out;
    for (const auto& event : events) {
      if (const auto* text = std::get_if<core::TextDeltaEvent>(&event)) out += text->text;
    }
    return out;
  }
  std::string thinking_deltas() const {
    std::string out;
    for (const auto& event : events) {
      if (const auto* text = std::get_if<core::ThinkingDeltaEvent>(&event)) out += text->text;
    }
    return out;
  }
  std::map<int, std::string> argument_deltas() const {
    std::map<int, std::string> out;
    for (const auto& event : events) {
      if (const auto* call = std::get_if<core::ToolCallDeltaEvent>(&event)) {
        out[call->index] += call->fragment;
      }
    }
    return out;
  }

  std::vector<core::Event> events;

 private:
  ResponsesStreamAssembler assembler_;
};

TEST(ResponsesStreamAssemblerTest, TextDeltasBecomeOneTextBlock) {
  ResponsesHarness harness;
  EXPECT_FALSE(harness.feed_reply(testing::responses_text("Hello, wörld!", 4)));
  EXPECT_TRUE(harness.assembler().complete());
  EXPECT_EQ(harness.assembler().error(), "");
  EXPECT_EQ(harness.events.size(), 4u);
  EXPECT_EQ(harness.text_deltas(), "Hello, wörld!");
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn);
  ASSERT_EQ(message.blocks.size(), 1u);
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[0]).text, "Hello, wörld!");
}

TEST(ResponsesStreamAssemblerTest, NotCompleteBeforeTheTerminalEvent) {
  ResponsesHarness harness;
  EXPECT_TRUE(harness.feed_reply(MockResponsesStream().text("so far", 2).unfinished()));
  EXPECT_FALSE(harness.assembler().complete());
  EXPECT_TRUE(harness.assembler().saw_events());
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), "so far");
}

TEST(ResponsesStreamAssemblerTest, FunctionCallArgumentsAreAssembledFromFragments) {
  const std::vector<MockToolCall> calls = {
      {"call_a", "read", R"({"path":"naïve/日本語.txt"})"},
      {"call_b", "ls", "{}"},
      {"call_c", "bash", R"({"command":"echo \"😀\""})"},
  };
  ResponsesHarness harness;
  harness.feed_reply(testing::responses_function_calls(calls, 2));
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kToolUse);
  const auto received = core::tool_calls_of(message);
  ASSERT_EQ(received.size(), calls.size());
  const auto streamed = harness.argument_deltas();
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(received[i].id, calls[i].id);
    EXPECT_EQ(received[i].name, calls[i].name);
    EXPECT_EQ(received[i].arguments, calls[i].arguments);
    EXPECT_EQ(streamed.at(static_cast<int>(i)), calls[i].arguments);
  }
  // The first delta of each call names it; later ones carry fragments only.
  const auto& first = std::get<core::ToolCallDeltaEvent>(harness.events[0]);
  EXPECT_EQ(first.index, 0);
  EXPECT_EQ(first.id, "call_a");
  EXPECT_EQ(first.name, "read");
  EXPECT_EQ(first.fragment, "");
  const auto& second = std::get<core::ToolCallDeltaEvent>(harness.events[1]);
  EXPECT_EQ(second.id, "");
  EXPECT_EQ(second.fragment, R"({")");
}

TEST(ResponsesStreamAssemblerTest, ReasoningSummaryBecomesThinkingWithItsItemAsSignature) {
  MockReasoning reasoning{"rs_42", {"**Planning**\n\nFirst part.", "Second part."}, "gAAAA-enc"};
  ResponsesHarness harness;
  harness.feed_reply(MockResponsesStream()
                         .reasoning(reasoning, 3)
                         .text("Answer", 1)
                         .function_call({"call_1", "ls", "{}"})
                         .completed());
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kToolUse);
  ASSERT_EQ(message.blocks.size(), 3u);
  const auto& thinking = std::get<core::ThinkingBlock>(message.blocks[0]);
  EXPECT_EQ(thinking.text, "**Planning**\n\nFirst part.\n\nSecond part.");
  EXPECT_EQ(harness.thinking_deltas(), thinking.text);
  EXPECT_FALSE(thinking.redacted);
  EXPECT_EQ(decode_reasoning_signature(thinking.signature), json::parse(R"(
    {"type": "reasoning", "id": "rs_42", "encrypted_content": "gAAAA-enc",
     "summary": [{"type": "summary_text", "text": "**Planning**\n\nFirst part."},
                 {"type": "summary_text", "text": "Second part."}]})"));
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[1]).text, "Answer");
  EXPECT_EQ(std::get<core::ToolCall>(message.blocks[2]).id, "call_1");
}

TEST(ResponsesStreamAssemblerTest, ReasoningWithoutSummaryKeepsItsSignature) {
  ResponsesHarness harness;
  harness.feed_reply(MockResponsesStream().reasoning({"rs_1", {}, "enc"}).text("ok").completed());
  const core::AssistantMessage message = harness.assembler().take_message();
  ASSERT_EQ(message.blocks.size(), 2u);
  const auto& thinking = std::get<core::ThinkingBlock>(message.blocks[0]);
  EXPECT_EQ(thinking.text, "");
  EXPECT_FALSE(decode_reasoning_signature(thinking.signature).is_null());
}

TEST(ResponsesStreamAssemblerTest, InterleavedItemsAreMatchedByOutputIndex) {
  ResponsesHarness harness;
  harness.feed("response.output_item.added", {{"output_index", 0},
                                              {"item",
                                               {{"id", "fc_0"},
                                                {"type", "function_call"},
                                                {"call_id", "c0"},
                                                {"name", "a"},
                                                {"arguments", ""}}}});
  harness.feed("response.output_item.added", {{"output_index", 1},
                                              {"item",
                                               {{"id", "fc_1"},
                                                {"type", "function_call"},
                                                {"call_id", "c1"},
                                                {"name", "b"},
                                                {"arguments", ""}}}});
  harness.feed("response.function_call_arguments.delta",
               {{"item_id", "fc_1"}, {"output_index", 1}, {"delta", "{\"y\""}});
  harness.feed("response.function_call_arguments.delta",
               {{"item_id", "fc_0"}, {"output_index", 0}, {"delta", "{\"x\":1}"}});
  // Matched by item id when the index is missing.
  harness.feed("response.function_call_arguments.delta", {{"item_id", "fc_1"}, {"delta", ":2}"}});
  EXPECT_FALSE(harness.feed("response.completed", {{"response", {{"status", "completed"}}}}));
  const auto calls = core::tool_calls_of(harness.assembler().take_message());
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].arguments, "{\"x\":1}");
  EXPECT_EQ(calls[1].arguments, "{\"y\":2}");
  EXPECT_EQ(harness.argument_deltas().at(1), "{\"y\":2}");
}

TEST(ResponsesStreamAssemblerTest, FinishedItemsFillInWhatDeltasMissed) {
  ResponsesHarness harness;
  // A server that sends no deltas at all, only finished items.
  harness.feed("response.output_item.done",
               {{"output_index", 0},
                {"item",
                 {{"id", "msg_0"},
                  {"type", "message"},
                  {"role", "assistant"},
                  {"content", json::array({{{"type", "output_text"}, {"text", "Hi"}}})}}}});
  harness.feed("response.output_item.done", {{"output_index", 1},
                                             {"item",
                                              {{"id", "fc_1"},
                                               {"type", "function_call"},
                                               {"call_id", "c1"},
                                               {"name", "ls"},
                                               {"arguments", "{\"a\":1}"}}}});
  // A call whose deltas stop short of arguments.done.
  harness.feed("response.output_item.added", {{"output_index", 2},
                                              {"item",
                                               {{"id", "fc_2"},
                                                {"type", "function_call"},
                                                {"call_id", "c2"},
                                                {"name", "read"},
                                                {"arguments", ""}}}});
  harness.feed("response.function_call_arguments.delta", {{"output_index", 2}, {"delta", "{\"p"}});
  harness.feed("response.function_call_arguments.done",
               {{"output_index", 2}, {"arguments", "{\"path\":\"x\"}"}});
  harness.feed("response.completed", {{"response", {{"status", "completed"}}}});
  EXPECT_EQ(harness.text_deltas(), "Hi");
  const auto streamed = harness.argument_deltas();
  EXPECT_EQ(streamed.at(0), "{\"a\":1}");
  EXPECT_EQ(streamed.at(1), "{\"path\":\"x\"}");
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(assistant_text(message), "Hi");
  const auto calls = core::tool_calls_of(message);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].id, "c1");
  EXPECT_EQ(calls[0].name, "ls");
  EXPECT_EQ(calls[1].arguments, "{\"path\":\"x\"}");
}

TEST(ResponsesStreamAssemblerTest, RefusalIsText) {
  ResponsesHarness harness;
  harness.feed("response.output_item.added",
               {{"output_index", 0}, {"item", {{"id", "m"}, {"type", "message"}}}});
  harness.feed("response.refusal.delta", {{"output_index", 0}, {"delta", "I can't help."}});
  harness.feed("response.completed", {{"response", {{"status", "completed"}}}});
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn);
  EXPECT_EQ(assistant_text(message), "I can't help.");
}

TEST(ResponsesStreamAssemblerTest, UsageSeparatesCachedInputTokens) {
  ResponsesHarness harness;
  harness.feed_reply(testing::responses_text("x", 1, {1500, 40, 1024}));
  const core::Usage usage = harness.assembler().take_message().usage;
  EXPECT_EQ(usage.input_tokens, 476);
  EXPECT_EQ(usage.cache_read_tokens, 1024);
  EXPECT_EQ(usage.output_tokens, 40);
  EXPECT_EQ(usage.cache_write_tokens, 0);
}

TEST(ResponsesStreamAssemblerTest, IncompleteAtTheOutputLimitIsMaxTokens) {
  ResponsesHarness harness;
  harness.feed_reply(MockResponsesStream()
                         .function_call({"call_1", "write", R"({"path":"a","con)"})
                         .incomplete("max_output_tokens", {10, 20, 0}));
  EXPECT_TRUE(harness.assembler().complete());
  EXPECT_EQ(harness.assembler().error(), "");
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(message.stop_reason, core::StopReason::kMaxTokens);
  EXPECT_EQ(core::tool_calls_of(message).at(0).arguments, R"({"path":"a","con)");
  EXPECT_EQ(message.usage.output_tokens, 20);
}

TEST(ResponsesStreamAssemblerTest, IncompleteForAnotherReasonIsAnError) {
  ResponsesHarness harness;
  harness.feed_reply(testing::responses_incomplete("partial", "content_filter"));
  EXPECT_NE(harness.assembler().error().find("content_filter"), std::string::npos)
      << harness.assembler().error();
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), "partial");
}

TEST(ResponsesStreamAssemblerTest, FailedResponseIsAnErrorWithItsKind) {
  ResponsesHarness harness;
  EXPECT_FALSE(harness.feed_reply(testing::responses_failed("server_error", "The model crashed")));
  EXPECT_FALSE(harness.assembler().complete());
  EXPECT_EQ(harness.assembler().error(),
            "the service reported that the reply failed: The model crashed (server_error)");
  EXPECT_EQ(harness.assembler().error_kind(), core::ErrorKind::kServer);
}

TEST(ResponsesStreamAssemblerTest, ErrorEventsAreErrorsWithTheirKind) {
  const struct {
    json fields;
    core::ErrorKind kind;
  } cases[] = {
      {{{"code", "context_length_exceeded"},
        {"message", "Your input exceeds the context window of this model."},
        {"param", "input"}},
       core::ErrorKind::kContextOverflow},
      {{{"error",
         {{"type", "invalid_request_error"},
          {"code", "context_length_exceeded"},
          {"message", "Too long."}}}},
       core::ErrorKind::kContextOverflow},
      {{{"code", "rate_limit_exceeded"}, {"message", "Slow down."}}, core::ErrorKind::kRateLimited},
      {{{"code", nullptr}, {"message", "Something odd."}}, core::ErrorKind::kOther},
  };
  for (const auto& test : cases) {
    ResponsesHarness harness;
    harness.feed("response.output_item.added",
                 {{"output_index", 0}, {"item", {{"id", "m"}, {"type", "message"}}}});
    harness.feed("response.output_text.delta", {{"output_index", 0}, {"delta", "partial"}});
    EXPECT_FALSE(harness.feed("error", test.fields));
    EXPECT_EQ(harness.assembler().error_kind(), test.kind) << test.fields.dump();
    EXPECT_NE(harness.assembler().error().find("the service reported an error in the stream: "),
              std::string::npos);
    EXPECT_EQ(assistant_text(harness.assembler().take_message()), "partial");
  }
}

TEST(ResponsesStreamAssemblerTest, NonJsonEventIsAnErrorNamingIt) {
  ResponsesHarness harness;
  EXPECT_FALSE(harness.feed_raw("message", "<html>oops</html>"));
  EXPECT_NE(harness.assembler().error().find("not JSON: <html>oops</html>"), std::string::npos);
}

TEST(ResponsesStreamAssemblerTest, UnknownEventsAndItemsAreIgnored) {
  // A hosted tool nib never requests (web_search_call is read: see openai_responses_web_search).
  ResponsesHarness harness;
  EXPECT_TRUE(harness.feed("keepalive"));
  EXPECT_TRUE(harness.feed("response.file_search_call.searching", {{"output_index", 0}}));
  EXPECT_TRUE(
      harness.feed("response.output_item.added",
                   {{"output_index", 0}, {"item", {{"id", "fs"}, {"type", "file_search_call"}}}}));
  EXPECT_TRUE(
      harness.feed("response.output_item.done",
                   {{"output_index", 0}, {"item", {{"id", "fs"}, {"type", "file_search_call"}}}}));
  EXPECT_TRUE(harness.events.empty());
  EXPECT_FALSE(harness.feed("response.completed", {{"response", {{"status", "completed"}}}}));
  EXPECT_TRUE(harness.assembler().take_message().blocks.empty());
}

TEST(ResponsesStreamAssemblerTest, DeltasWithoutAnAnnouncedItemStillCount) {
  ResponsesHarness harness;
  harness.feed("response.output_text.delta", {{"output_index", 3}, {"delta", "a"}});
  harness.feed("response.output_text.delta", {{"output_index", 3}, {"delta", "b"}});
  harness.feed("response.function_call_arguments.delta", {{"output_index", 4}, {"delta", "{}"}});
  harness.feed("response.completed", {{"response", {{"status", "completed"}}}});
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(assistant_text(message), "ab");
  const auto calls = core::tool_calls_of(message);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].id, "call_0");  // no call_id ever arrived
  EXPECT_EQ(calls[0].arguments, "{}");
}

TEST(ResponsesStreamAssemblerTest, EventNameServesWhenTheDataHasNoType) {
  ResponsesHarness harness;
  EXPECT_TRUE(harness.feed_raw("response.output_text.delta", R"({"output_index":0,"delta":"x"})"));
  EXPECT_FALSE(harness.feed_raw("response.completed", R"({"response":{"status":"completed"}})"));
  EXPECT_TRUE(harness.assembler().complete());
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), "x");
}

TEST(ResponsesStreamAssemblerTest, DoneMarkerBeforeTheEndStopsReadingIncomplete) {
  ResponsesHarness harness;
  EXPECT_FALSE(harness.feed_raw("message", "[DONE]"));
  EXPECT_FALSE(harness.assembler().complete());
  EXPECT_EQ(harness.assembler().error(), "");
}

TEST(ResponsesStreamAssemblerTest, TheFinishedItemsTextWinsOverItsDeltas) {
  ResponsesHarness harness;
  const auto done = [&](int index, const std::string& text) {
    harness.feed("response.output_item.done",
                 {{"output_index", index},
                  {"item",
                   {{"id", "msg_" + std::to_string(index)},
                    {"type", "message"},
                    {"content", json::array({{{"type", "output_text"}, {"text", text}}})}}}});
  };
  harness.feed("response.output_text.delta", {{"output_index", 0}, {"delta", "Hel"}});
  done(0, "Hello");  // the deltas stopped short: the tail is passed on
  harness.feed("response.output_text.delta", {{"output_index", 1}, {"delta", "Wrold"}});
  done(1, "World");  // they differ: the item wins
  harness.feed("response.output_text.delta", {{"output_index", 2}, {"delta", "kept"}});
  harness.feed("response.output_item.done",
               {{"output_index", 2},
                {"item", {{"id", "msg_2"}, {"type", "message"}, {"content", json::array()}}}});
  harness.feed("response.completed", {{"response", {{"status", "completed"}}}});
  EXPECT_EQ(harness.text_deltas(), "Hello\n\nWrold\n\nkept");
  // An item without text leaves its deltas alone.
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), "Hello\n\nWorld\n\nkept");
}

TEST(ResponsesStreamAssemblerTest, TwoMessageItemsStayTwoSeparatedBlocks) {
  ResponsesHarness harness;
  EXPECT_FALSE(harness.feed_reply(
      MockResponsesStream().text("Let me check.").text("It is 4.", 2).completed()));
  EXPECT_EQ(harness.text_deltas(), "Let me check.\n\nIt is 4.");
  const core::AssistantMessage message = harness.assembler().take_message();
  ASSERT_EQ(message.blocks.size(), 2u);
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[1]).text, "It is 4.");
  EXPECT_EQ(assistant_text(message), harness.text_deltas());
}

TEST(ResponsesStreamAssemblerTest, NothingIsReadAfterTheEnd) {
  ResponsesHarness harness;
  harness.feed("response.output_text.delta", {{"output_index", 0}, {"delta", "whole"}});
  EXPECT_FALSE(harness.feed("response.completed", {{"response", {{"status", "completed"}}}}));
  EXPECT_FALSE(harness.feed_raw("message", "[DO"));
  EXPECT_FALSE(harness.feed("response.output_text.delta", {{"output_index", 0}, {"delta", "!"}}));
  EXPECT_FALSE(harness.feed("error", {{"code", "late"}, {"message", "ignored"}}));
  EXPECT_TRUE(harness.assembler().complete());
  EXPECT_EQ(harness.assembler().error(), "");
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), "whole");
}

TEST(ResponsesStreamAssemblerTest, ItemsOnlyInTheCompletedResponseCount) {
  ResponsesHarness harness;
  harness.feed("response.created", {{"response", {{"status", "in_progress"}}}});
  harness.feed(
      "response.completed",
      {{"response",
        {{"status", "completed"},
         {"output",
          json::array({{{"id", "msg_a"},
                        {"type", "message"},
                        {"content", json::array({{{"type", "output_text"}, {"text", "Hi"}}})}},
                       {{"id", "fc_b"},
                        {"type", "function_call"},
                        {"call_id", "call_b"},
                        {"name", "ls"},
                        {"arguments", "{}"}}})}}}});
  const core::AssistantMessage message = harness.assembler().take_message();
  EXPECT_EQ(assistant_text(message), "Hi");
  ASSERT_EQ(core::tool_calls_of(message).size(), 1u);
  EXPECT_EQ(core::tool_calls_of(message)[0].id, "call_b");
  EXPECT_EQ(message.stop_reason, core::StopReason::kToolUse);
}

TEST(ResponsesStreamAssemblerTest, TheCompletedListDoesNotRepeatStreamedItems) {
  ResponsesHarness harness;
  EXPECT_FALSE(harness.feed_reply(MockResponsesStream().text("once").completed()));
  EXPECT_EQ(assistant_text(harness.assembler().take_message()), "once");
}

}  // namespace
}  // namespace nib::provider
