// The OpenAI Responses API's hosted web search (tools: [{type: web_search}]): the tool in the
// request, the streamed web_search_call item and url_citation annotations read into nib's
// blocks, and the item sent back with the history.
//
// The event shapes follow the API reference's "Streaming events" (response.output_item.added /
// .done with a web_search_call item {id, type, status, action}; response.web_search_call
// .in_progress / .searching / .completed {item_id, output_index, sequence_number};
// response.output_text.annotation.added {item_id, output_index, content_index,
// annotation_index, annotation}) and the web search guide's output (action {type: search,
// query, sources: [{type: url, url}]} with include ["web_search_call.action.sources"]; an
// output_text part's annotations [{type: url_citation, start_index, end_index, url, title}]);
// openai-python's ResponseFunctionWebSearch and ResponseOutputText types name the same fields.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "provider/openai_responses.hpp"
#include "provider/openai_responses_request.hpp"
#include "provider/openai_responses_stream.hpp"

#include "support/message_builders.hpp"
#include "support/text_deltas.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

class ResponsesSearchStream {
 public:
  ResponsesSearchStream()
      : assembler_([this](const core::Event& event) { events_.push_back(event); }) {}
  void feed(const std::string& type, json fields) {
    fields["type"] = type;
    fields["sequence_number"] = sequence_++;
    assembler_.consume({type, fields.dump()});
  }
  core::AssistantMessage finish() {
    feed("response.completed", {{"response",
                                 {{"id", "resp_1"},
                                  {"status", "completed"},
                                  {"usage", {{"input_tokens", 40}, {"output_tokens", 30}}}}}});
    core::AssistantMessage message = assembler_.take_message();
    message.api = kOpenAIResponsesApi;
    return message;
  }
  std::string streamed_text() const { return testing::text_deltas(events_); }

 private:
  ResponsesStreamAssembler assembler_;
  std::vector<core::Event> events_;
  int sequence_ = 0;
};

const json kFinishedSearch = json::parse(R"({
  "id": "ws_67c9fa0502748190b7dd390736892e100be649c1a5ff9609",
  "type": "web_search_call",
  "status": "completed",
  "action": {"type": "search", "query": "positive news story today",
             "sources": [{"type": "url", "url": "https://www.example.com/news/otters"},
                         {"type": "url", "url": "https://news.example.org/river"}]}})");

const json kResponsesCitation = json::parse(R"({
  "type": "url_citation", "start_index": 20, "end_index": 60,
  "url": "https://www.example.com/news/otters", "title": "Otters return to the river"})");

const std::string kAnswer = "Good news today: otters are back in the river.";

// A search, then a message citing one of its sources.
core::AssistantMessage documented_responses_turn(ResponsesSearchStream& stream) {
  const std::string id = kFinishedSearch["id"];
  stream.feed("response.output_item.added",
              {{"output_index", 0},
               {"item", {{"id", id}, {"type", "web_search_call"}, {"status", "in_progress"}}}});
  for (const char* progress :
       {"response.web_search_call.in_progress", "response.web_search_call.searching",
        "response.web_search_call.completed"}) {
    stream.feed(progress, {{"output_index", 0}, {"item_id", id}});
  }
  stream.feed("response.output_item.done", {{"output_index", 0}, {"item", kFinishedSearch}});
  stream.feed("response.output_item.added", {{"output_index", 1},
                                             {"item",
                                              {{"id", "msg_1"},
                                               {"type", "message"},
                                               {"status", "in_progress"},
                                               {"role", "assistant"},
                                               {"content", json::array()}}}});
  const json at = {{"item_id", "msg_1"}, {"output_index", 1}, {"content_index", 0}};
  json delta = at;
  delta["delta"] = kAnswer;
  stream.feed("response.output_text.delta", delta);
  json annotation = at;
  annotation["annotation_index"] = 0;
  annotation["annotation"] = kResponsesCitation;
  stream.feed("response.output_text.annotation.added", annotation);
  stream.feed(
      "response.output_item.done",
      {{"output_index", 1},
       {"item",
        {{"id", "msg_1"},
         {"type", "message"},
         {"status", "completed"},
         {"role", "assistant"},
         {"content", json::array({{{"type", "output_text"},
                                   {"text", kAnswer},
                                   {"annotations", json::array({kResponsesCitation})}}})}}}});
  return stream.finish();
}

TEST(OpenAIResponsesWebSearchTest, TheToolIsOfferedOnlyWhenTurnedOn) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = testing::request_over(messages, "gpt-test");
  json body = json::parse(build_responses_request(request));
  EXPECT_FALSE(body.contains("tools"));
  EXPECT_FALSE(body.contains("include"));
  request.web_search = true;
  body = json::parse(build_responses_request(request));
  EXPECT_EQ(body["tools"], json::parse(R"([{"type": "web_search"}])"));
  EXPECT_EQ(body["include"], json::parse(R"(["web_search_call.action.sources"])"));

  request.model.reasoning = true;
  request.tools = {{"read", "Reads a file.", json::object()}};
  body = json::parse(build_responses_request(request));
  ASSERT_EQ(body["tools"].size(), 2u);
  EXPECT_EQ(body["tools"][0]["name"], "read");
  EXPECT_EQ(body["tools"][1], json::parse(R"({"type": "web_search"})"));
  EXPECT_EQ(body["include"], json::parse(
                                 R"(["web_search_call.action.sources",
                                     "reasoning.encrypted_content"])"));
}

TEST(OpenAIResponsesWebSearchTest, TheSearchBecomesABlockWithItsQueryAndSources) {
  ResponsesSearchStream stream;
  const core::AssistantMessage message = documented_responses_turn(stream);
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn);
  const auto searches = core::web_searches_of(message);
  ASSERT_EQ(searches.size(), 1u);
  EXPECT_EQ(searches[0].id, kFinishedSearch["id"]);
  EXPECT_EQ(searches[0].query, "positive news story today");
  ASSERT_EQ(searches[0].results.size(), 2u);
  EXPECT_EQ(searches[0].results[1].url, "https://news.example.org/river");
  EXPECT_EQ(json::parse(searches[0].replay), kFinishedSearch);
  EXPECT_EQ(core::assistant_text(message), kAnswer);
  EXPECT_EQ(stream.streamed_text(), kAnswer);
}

TEST(OpenAIResponsesWebSearchTest, UrlCitationsOfTheAnswerAreKept) {
  ResponsesSearchStream stream;
  const auto citations = core::citations_of(documented_responses_turn(stream));
  ASSERT_EQ(citations.size(), 1u);  // the annotation event and the finished item: one citation
  EXPECT_EQ(citations[0].url, "https://www.example.com/news/otters");
  EXPECT_EQ(citations[0].title, "Otters return to the river");
}

TEST(OpenAIResponsesWebSearchTest, AFailedSearchSaysSo) {
  ResponsesSearchStream stream;
  json failed = kFinishedSearch;
  failed["status"] = "failed";
  stream.feed("response.output_item.done", {{"output_index", 0}, {"item", failed}});
  const auto searches = core::web_searches_of(stream.finish());
  ASSERT_EQ(searches.size(), 1u);
  EXPECT_EQ(searches[0].error, "failed");
}

TEST(OpenAIResponsesWebSearchTest, HistorySendsTheItemBackWithItsId) {
  ResponsesSearchStream stream;
  const core::AssistantMessage reply = documented_responses_turn(stream);
  const std::vector<core::Message> history = {core::UserMessage{core::text_content("news?")}, reply,
                                              core::UserMessage{core::text_content("more")}};
  const json input =
      json::parse(build_responses_request(testing::request_over(history, "gpt-test")))["input"];
  ASSERT_EQ(input.size(), 4u) << input.dump(1);
  EXPECT_EQ(input[1], kFinishedSearch);
  EXPECT_EQ(input[2]["type"], "message");
  EXPECT_EQ(input[2]["role"], "assistant");
  EXPECT_EQ(input[2]["content"][0]["text"], kAnswer);
}

TEST(OpenAIResponsesWebSearchTest, ReasoningBeforeASearchIsReplayedWithIt) {
  // A reasoning item must be followed by its item; a search counts as one.
  const std::string signature = encode_reasoning_signature(
      {{"id", "rs_1"}, {"type", "reasoning"}, {"encrypted_content", "gAAA"}, {"summary", {}}});
  core::WebSearchBlock search{.id = "ws_1",
                              .query = "q",
                              .results = {},
                              .error = {},
                              .replay = encode_web_search_replay(kFinishedSearch)};
  const std::vector<core::Message> history = {
      core::UserMessage{core::text_content("q")},
      testing::assistant_message({core::ThinkingBlock{"", signature, false}, search},
                                 kOpenAIResponsesApi)};
  const json input =
      json::parse(build_responses_request(testing::request_over(history, "gpt-test")))["input"];
  ASSERT_EQ(input.size(), 3u) << input.dump(1);
  EXPECT_EQ(input[1]["type"], "reasoning");
  EXPECT_EQ(input[2], kFinishedSearch);
}

TEST(OpenAIResponsesWebSearchTest, AnotherProtocolsSearchStaysHome) {
  core::WebSearchBlock search{.id = "srvtoolu_1",
                              .query = "q",
                              .results = {},
                              .error = {},
                              .replay = R"([{"type":"server_tool_use"}])"};
  const std::vector<core::Message> history = {
      core::UserMessage{core::text_content("q")},
      testing::assistant_message({search, core::TextBlock{"Answer."}}, "anthropic-messages")};
  const json input =
      json::parse(build_responses_request(testing::request_over(history, "gpt-test")))["input"];
  ASSERT_EQ(input.size(), 2u) << input.dump(1);
  EXPECT_EQ(input[1]["type"], "message");
}

}  // namespace
}  // namespace nib::provider
