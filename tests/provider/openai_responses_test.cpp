// OpenAIResponsesProvider end to end through libcurl against the in-repo mock server.

#include "provider/openai_responses.hpp"

#include <gtest/gtest.h>

#include <latch>
#include <map>
#include <random>
#include <thread>

#include "support/mock_model_server.hpp"
#include "support/mock_responses_replies.hpp"
#include "support/provider_fixture.hpp"
#include "support/text_match.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;
using testing::MockReply;
using testing::MockResponsesStream;
using testing::MockToolCall;

using testing::contains;

class OpenAIResponsesProviderTest : public testing::ProviderFixture {
 protected:
  OpenAIResponsesProviderTest() : ProviderFixture("mock-model") {}

  OpenAIResponsesProvider provider(std::string api_key = "sk-test") {
    return OpenAIResponsesProvider({server_.base_url(), std::move(api_key), {}});
  }

  core::AssistantMessage run(std::stop_token stop = {}) {
    auto under_test = provider();
    return stream_with(under_test, stop);
  }
};

TEST_F(OpenAIResponsesProviderTest, StreamsATextReply) {
  server_.enqueue(testing::responses_text("Hello there, grüß dich!", 6));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn) << message.error_message;
  EXPECT_EQ(message.model, "mock-model");
  EXPECT_EQ(message.api, kOpenAIResponsesApi);
  ASSERT_EQ(message.blocks.size(), 1u);
  EXPECT_EQ(std::get<core::TextBlock>(message.blocks[0]).text, "Hello there, grüß dich!");
  EXPECT_EQ(delta_text(), "Hello there, grüß dich!");
  EXPECT_EQ(deltas_.size(), 6u);
  EXPECT_EQ(message.usage.input_tokens, 12);
  EXPECT_EQ(message.usage.output_tokens, 7);
}

TEST_F(OpenAIResponsesProviderTest, SendsTheRequestWithHeaders) {
  server_.enqueue(testing::responses_text("ok"));
  request_.model.max_output_tokens = 100;
  OpenAIResponsesProvider with_headers(
      {server_.base_url() + "/", "sk-secret", {{"X-Extra", "yes"}}});
  EXPECT_EQ(with_headers.url(), server_.base_url() + "/responses");
  with_headers.stream(request_, {}, {});
  ASSERT_TRUE(server_.wait_for_requests(1));
  const testing::RecordedRequest recorded = server_.requests().at(0);
  EXPECT_EQ(recorded.path, "/v1/responses");
  EXPECT_EQ(recorded.header("authorization"), "Bearer sk-secret");
  EXPECT_EQ(recorded.header("accept"), "text/event-stream");
  EXPECT_EQ(recorded.header("content-type"), "application/json");
  EXPECT_EQ(recorded.header("x-extra"), "yes");
  EXPECT_EQ(recorded.body["model"], "mock-model");
  EXPECT_EQ(recorded.body["stream"], true);
  EXPECT_EQ(recorded.body["store"], false);
  EXPECT_EQ(recorded.body["max_output_tokens"], 100);
  EXPECT_EQ(recorded.body["instructions"], "Be brief.");
  EXPECT_EQ(recorded.body["input"], json::parse(R"([
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}])"));
}

TEST_F(OpenAIResponsesProviderTest, SendsNoAuthorizationWithoutKey) {
  server_.enqueue(testing::responses_text("ok"));
  provider("").stream(request_, {}, {});
  ASSERT_TRUE(server_.wait_for_requests(1));
  EXPECT_EQ(server_.requests().at(0).header("authorization"), "");
}

TEST_F(OpenAIResponsesProviderTest, AssemblesToolCallsFromTinyPiecesWithKeepAlives) {
  const std::vector<MockToolCall> calls = {
      {"call_1", "read", R"({"path":"src/main.cpp","offset":10})"},
      {"call_2", "grep", R"({"pattern":"naïve \\d+ 日本語","path":"."})"},
      {"call_3", "write", R"({"path":"emoji.txt","content":"😀 line\nnext"})"},
  };
  MockResponsesStream stream;
  stream.raw(": keep-alive comment\n\n").event("keepalive");
  for (const auto& call : calls) stream.function_call(call, 3).event("keepalive");
  MockReply reply = stream.completed();
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

TEST_F(OpenAIResponsesProviderTest, ReasoningRoundTripsThroughTheNextRequest) {
  request_.model.reasoning = true;
  request_.thinking = core::ThinkingLevel::kHigh;
  server_.enqueue(MockResponsesStream()
                      .reasoning({"rs_7", {"Looking at the files."}, "gAAAA-secret"}, 2)
                      .function_call({"call_1", "ls", "{}"})
                      .completed());
  const core::AssistantMessage first = run();
  ASSERT_EQ(first.stop_reason, core::StopReason::kToolUse) << first.error_message;
  ASSERT_EQ(first.blocks.size(), 2u);
  EXPECT_EQ(std::get<core::ThinkingBlock>(first.blocks[0]).text, "Looking at the files.");
  ASSERT_TRUE(std::holds_alternative<core::ThinkingDeltaEvent>(deltas_.at(0)));

  history_.push_back(first);
  history_.push_back(
      core::ToolResultMessage{{core::ToolResult{"call_1", "ls", core::text_content("a.txt")}}});
  server_.enqueue(testing::responses_text("Done."));
  EXPECT_EQ(run().stop_reason, core::StopReason::kEndTurn);

  ASSERT_TRUE(server_.wait_for_requests(2));
  const json first_body = server_.requests().at(0).body;
  EXPECT_EQ(first_body["reasoning"], json({{"effort", "high"}, {"summary", "auto"}}));
  EXPECT_EQ(first_body["include"], json::array({"reasoning.encrypted_content"}));
  const json input = server_.requests().at(1).body["input"];
  EXPECT_EQ(input, json::parse(R"([
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]},
    {"type": "reasoning", "id": "rs_7", "encrypted_content": "gAAAA-secret",
     "summary": [{"type": "summary_text", "text": "Looking at the files."}]},
    {"type": "function_call", "call_id": "call_1", "name": "ls", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "call_1", "output": "a.txt"}])"));
}

// A freeform tool's call (a custom_tool_call item) beside function calls in one reply, its raw
// input streamed in custom_tool_call_input deltas and the transport cutting the stream at
// random bytes: the call holds its input as {"input": ...}, marked freeform, and the deltas
// passed on add up to the arguments.
TEST_F(OpenAIResponsesProviderTest, CustomToolCallsArriveBesideFunctionCalls) {
  const std::string patch =
      "*** Begin Patch\n*** Update File: naïve/日本語.txt\n@@ def f():\n-\t\"old\" \\ line\n"
      "+new — “quoted” 😀\n*** End Patch\n";
  std::mt19937 random(27);
  for (int round = 0; round < 8; ++round) {
    SCOPED_TRACE(round);
    deltas_.clear();
    MockReply reply = MockResponsesStream()
                          .function_call({"call_1", "read", R"({"path":"a.txt"})"}, 4)
                          .custom_tool_call("call_2", "apply_patch", patch, 1 + random() % 9)
                          .function_call({"call_3", "ls", "{}"}, 2)
                          .completed();
    reply.max_write_bytes = 1 + random() % 17;
    server_.enqueue(reply);
    const core::AssistantMessage message = run();
    ASSERT_EQ(message.stop_reason, core::StopReason::kToolUse) << message.error_message;
    const auto calls = core::tool_calls_of(message);
    ASSERT_EQ(calls.size(), 3u);
    EXPECT_FALSE(calls[0].freeform);
    EXPECT_EQ(calls[0].arguments, R"({"path":"a.txt"})");
    EXPECT_EQ(calls[1].id, "call_2");
    EXPECT_EQ(calls[1].name, "apply_patch");
    EXPECT_TRUE(calls[1].freeform);
    EXPECT_EQ(json::parse(calls[1].arguments), json({{"input", patch}}));
    EXPECT_FALSE(calls[2].freeform);
    std::map<int, std::string> streamed;
    for (const auto& event : deltas_) {
      const auto& delta = std::get<core::ToolCallDeltaEvent>(event);
      streamed[delta.index] += delta.fragment;
    }
    EXPECT_EQ(streamed[1], calls[1].arguments);
  }
}

// A freeform tool is declared as a custom tool with its grammar; its call goes back as the
// custom_tool_call it came as, answered by a custom_tool_call_output.
TEST_F(OpenAIResponsesProviderTest, FreeformToolsAreDeclaredAndAnsweredAsCustomTools) {
  core::ToolSpec patch_tool{.name = "apply_patch", .description = "Patch files."};
  patch_tool.grammar = "start: \"x\"";
  request_.tools = {patch_tool, core::ToolSpec{.name = "ls", .description = "List."}};
  core::ToolCall freeform{"call_p", "apply_patch", R"({"input":"*** Begin Patch\n"})"};
  freeform.freeform = true;
  core::AssistantMessage replied;
  replied.blocks = {freeform, core::ToolCall{"call_l", "ls", "{}"}};
  replied.api = kOpenAIResponsesApi;
  core::ToolResultMessage results;
  results.results = {core::ToolResult{"call_p", "apply_patch", core::text_content("Success.")},
                     core::ToolResult{"call_l", "ls", core::text_content("a.txt")}};
  history_ = {history_.front(), replied, results};
  server_.enqueue(testing::responses_text("Done."));
  EXPECT_EQ(run().stop_reason, core::StopReason::kEndTurn);

  ASSERT_TRUE(server_.wait_for_requests(1));
  const json body = server_.requests().at(0).body;
  EXPECT_EQ(body["tools"][0], json::parse(R"({"type": "custom", "name": "apply_patch",
      "description": "Patch files.",
      "format": {"type": "grammar", "syntax": "lark", "definition": "start: \"x\""}})"));
  EXPECT_EQ(body["tools"][1]["type"], "function");
  EXPECT_EQ(body["input"], json::parse(R"([
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]},
    {"type": "custom_tool_call", "call_id": "call_p", "name": "apply_patch",
     "input": "*** Begin Patch\n"},
    {"type": "function_call", "call_id": "call_l", "name": "ls", "arguments": "{}"},
    {"type": "custom_tool_call_output", "call_id": "call_p", "output": "Success."},
    {"type": "function_call_output", "call_id": "call_l", "output": "a.txt"}])"));
}

TEST_F(OpenAIResponsesProviderTest, IncompleteAtTheLimitKeepsTheTruncatedCall) {
  server_.enqueue(MockResponsesStream()
                      .function_call({"call_1", "write", R"({"path":"a","con)"}, 4)
                      .incomplete("max_output_tokens"));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kMaxTokens) << message.error_message;
  EXPECT_EQ(core::tool_calls_of(message).at(0).arguments, R"({"path":"a","con)");
}

TEST_F(OpenAIResponsesProviderTest, MapsUsageWithCachedTokens) {
  server_.enqueue(testing::responses_text("ok", 1, {1500, 40, 1024}));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.usage.input_tokens, 476);
  EXPECT_EQ(message.usage.cache_read_tokens, 1024);
  EXPECT_EQ(message.usage.output_tokens, 40);
}

TEST_F(OpenAIResponsesProviderTest, ErrorEventMidStreamIsAnErrorKeepingPartialText) {
  server_.enqueue(MockResponsesStream().text("so far", 2).error("server_error", "Upstream died"));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_kind, core::ErrorKind::kServer);
  EXPECT_TRUE(contains(message.error_message, "Upstream died")) << message.error_message;
  EXPECT_EQ(assistant_text(message), "so far");
}

TEST_F(OpenAIResponsesProviderTest, ContextOverflowErrorEventHasItsKind) {
  server_.enqueue(testing::responses_error(
      "context_length_exceeded",
      "Your input exceeds the context window of this model. Please adjust your input and try "
      "again."));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_kind, core::ErrorKind::kContextOverflow) << message.error_message;
}

TEST_F(OpenAIResponsesProviderTest, FailedResponseIsAnError) {
  server_.enqueue(testing::responses_failed("server_error", "The model crashed"));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_kind, core::ErrorKind::kServer);
  EXPECT_TRUE(contains(message.error_message, "The model crashed")) << message.error_message;
}

TEST_F(OpenAIResponsesProviderTest, ContextOverflowHttpErrorHasItsKind) {
  server_.enqueue(MockReply::http_error(400, R"({"error":{
    "message": "Your input exceeds the context window of this model. Please adjust your input and try again.",
    "type": "invalid_request_error", "param": "input", "code": "context_length_exceeded"}})"));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_kind, core::ErrorKind::kContextOverflow);
  EXPECT_TRUE(contains(message.error_message, "HTTP 400 from " + server_.base_url() + "/responses"))
      << message.error_message;
}

TEST_F(OpenAIResponsesProviderTest, Http429ReportsRetryAfter) {
  server_.enqueue(
      MockReply::http_error(429, R"({"error":{"message":"Rate limit reached","type":"requests"}})",
                            {{"Retry-After", "3"}}));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_kind, core::ErrorKind::kRateLimited);
  ASSERT_TRUE(message.retry_after.has_value());
  EXPECT_EQ(*message.retry_after, std::chrono::seconds(3));
  EXPECT_TRUE(contains(message.error_message, "Rate limit reached")) << message.error_message;
}

TEST_F(OpenAIResponsesProviderTest, Http529IsOverloaded) {
  server_.enqueue(MockReply::http_error(529, R"({"error":{"message":"Overloaded"}})",
                                        {{"retry-after-ms", "250"}}));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.error_kind, core::ErrorKind::kOverloaded);
  EXPECT_EQ(message.retry_after, std::chrono::milliseconds(250));
}

TEST_F(OpenAIResponsesProviderTest, DisconnectMidStreamIsAnErrorKeepingPartialText) {
  MockResponsesStream stream;
  stream.text("Partial answer that never ends", 5);
  server_.enqueue(stream.completed().disconnect_after(6));
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_TRUE(contains(message.error_message, "stream ended before the reply was complete"))
      << message.error_message;
  EXPECT_FALSE(assistant_text(message).empty());
  EXPECT_EQ(assistant_text(message), delta_text());
}

TEST_F(OpenAIResponsesProviderTest, CleanEndWithoutTerminalEventIsAnError) {
  server_.enqueue(MockResponsesStream().text("cut", 1).unfinished());
  const core::AssistantMessage message = run();
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_message, "stream ended before the reply was complete");
  EXPECT_EQ(assistant_text(message), "cut");
}

TEST_F(OpenAIResponsesProviderTest, UnreachableServerIsAConnectionError) {
  // Port 1 on loopback: nothing listens there, so the connection is refused at once.
  OpenAIResponsesProvider unreachable({"http://127.0.0.1:1/v1", "", {}});
  const core::AssistantMessage message = unreachable.stream(request_, {}, {});
  EXPECT_EQ(message.stop_reason, core::StopReason::kError);
  EXPECT_EQ(message.error_kind, core::ErrorKind::kConnection);
  EXPECT_TRUE(contains(message.error_message, "request to http://127.0.0.1:1/v1/responses failed"))
      << message.error_message;
}

TEST_F(OpenAIResponsesProviderTest, AbortDuringAHeldStreamReturnsAbortedWithPartialText) {
  MockResponsesStream stream;
  stream.text("first part, then silence", 4);
  // Held after the first text delta (created, in_progress, item added, part added, delta).
  server_.enqueue(stream.completed().hold_after_chunks(5));
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
  EXPECT_EQ(message.api, kOpenAIResponsesApi);
}

TEST_F(OpenAIResponsesProviderTest, LaterRequestsReuseTheConnection) {
  server_.enqueue(testing::responses_text("one"));
  server_.enqueue(testing::responses_text("two"));
  OpenAIResponsesProvider shared = provider();
  const auto ignore = [](const core::Event&) {};
  EXPECT_EQ(shared.stream(request_, {}, ignore).stop_reason, core::StopReason::kEndTurn);
  EXPECT_EQ(shared.stream(request_, {}, ignore).stop_reason, core::StopReason::kEndTurn);
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].remote_port, requests[1].remote_port);
}

}  // namespace
}  // namespace nib::provider
