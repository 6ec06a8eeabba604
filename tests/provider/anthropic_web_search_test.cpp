// Anthropic's hosted web search (the web_search server tool): the tool in the request, the
// streamed server_tool_use / web_search_tool_result blocks and cited text read into nib's
// blocks, and those blocks sent back unchanged with the history.
//
// The event shapes follow Anthropic's web search tool documentation ("Streaming": a
// server_tool_use content block whose input arrives as input_json_delta, then a
// web_search_tool_result block whole in its content_block_start, with `content` a list of
// web_search_result {title, url, encrypted_content, page_age} or an error object
// {type: web_search_tool_result_error, error_code}) and the citations documentation (a text
// block's citations_delta carrying a web_search_result_location {url, title, encrypted_index,
// cited_text}); the anthropic-sdk-python types (WebSearchToolResultBlock,
// CitationsWebSearchResultLocation, CitationsDelta) name the same fields.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "provider/anthropic_request.hpp"
#include "provider/anthropic_stream.hpp"

#include "support/message_builders.hpp"
#include "support/text_deltas.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

// Feeds the service's events, in order, to one assembler.
class AnthropicSearchStream {
 public:
  AnthropicSearchStream()
      : assembler_([this](const core::Event& event) { events_.push_back(event); }) {
    feed({{"type", "message_start"},
          {"message",
           {{"id", "msg_1"},
            {"type", "message"},
            {"role", "assistant"},
            {"content", json::array()},
            {"model", "claude-test"},
            {"usage", {{"input_tokens", 30}, {"output_tokens", 1}}}}}});
  }
  void feed(const json& payload) {
    assembler_.consume({payload["type"].get<std::string>(), payload.dump()});
  }
  void start(int index, const json& block) {
    feed({{"type", "content_block_start"}, {"index", index}, {"content_block", block}});
  }
  void delta(int index, const json& delta) {
    feed({{"type", "content_block_delta"}, {"index", index}, {"delta", delta}});
  }
  void stop(int index) { feed({{"type", "content_block_stop"}, {"index", index}}); }
  void text(int index, const std::string& text) {
    start(index, {{"type", "text"}, {"text", ""}});
    delta(index, {{"type", "text_delta"}, {"text", text}});
    stop(index);
  }
  core::AssistantMessage finish() {
    feed({{"type", "message_delta"},
          {"delta", {{"stop_reason", "end_turn"}, {"stop_sequence", nullptr}}},
          {"usage", {{"output_tokens", 40}}}});
    feed({{"type", "message_stop"}});
    core::AssistantMessage message = assembler_.take_message();
    message.api = kAnthropicApi;
    return message;
  }
  std::string streamed_text() const { return testing::text_deltas(events_); }
  const std::string& error() const { return assembler_.error(); }

 private:
  AnthropicStreamAssembler assembler_;
  std::vector<core::Event> events_;
};

const json kServerToolUse = {{"type", "server_tool_use"},
                             {"id", "srvtoolu_01"},
                             {"name", "web_search"},
                             {"input", {{"query", "claude shannon birth date"}}}};

const json kSearchResult = json::parse(R"({
  "type": "web_search_tool_result",
  "tool_use_id": "srvtoolu_01",
  "content": [
    {"type": "web_search_result", "title": "Claude Shannon - Wikipedia",
     "url": "https://en.wikipedia.org/wiki/Claude_Shannon",
     "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5", "page_age": "April 30, 2025"},
    {"type": "web_search_result", "title": "Shannon biography",
     "url": "https://example.org/shannon", "encrypted_content": "Eo0BCioIAhgB", "page_age": null}
  ]})");

const json kAnthropicCitation = {{"type", "web_search_result_location"},
                                 {"url", "https://en.wikipedia.org/wiki/Claude_Shannon"},
                                 {"title", "Claude Shannon - Wikipedia"},
                                 {"encrypted_index", "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm"},
                                 {"cited_text", "Claude Elwood Shannon (April 30, 1916 - ..."}};

// The documentation's example turn: a sentence, the search, then the answer in two text
// blocks, the second citing a result.
core::AssistantMessage documented_anthropic_turn(AnthropicSearchStream& stream) {
  stream.text(0, "I'll search for when Claude Shannon was born.");
  stream.start(1, {{"type", "server_tool_use"},
                   {"id", "srvtoolu_01"},
                   {"name", "web_search"},
                   {"input", json::object()}});
  stream.delta(1, {{"type", "input_json_delta"}, {"partial_json", ""}});
  stream.delta(1, {{"type", "input_json_delta"}, {"partial_json", "{\"query\": \"claude "}});
  stream.delta(1, {{"type", "input_json_delta"}, {"partial_json", "shannon birth date\"}"}});
  stream.stop(1);
  stream.start(2, kSearchResult);
  stream.stop(2);
  stream.text(3, "Based on the search results, ");
  stream.start(4, {{"type", "text"}, {"text", ""}});
  stream.delta(4, {{"type", "citations_delta"}, {"citation", kAnthropicCitation}});
  stream.delta(4, {{"type", "text_delta"}, {"text", "Claude Shannon was born on April 30, 1916"}});
  stream.stop(4);
  return stream.finish();
}

TEST(AnthropicWebSearchTest, TheToolIsOfferedOnlyWhenTurnedOn) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = testing::request_over(messages, "claude-sonnet-4-5");
  EXPECT_FALSE(json::parse(build_anthropic_request(request)).contains("tools"));
  request.web_search = true;
  json tools = json::parse(build_anthropic_request(request))["tools"];
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(tools[0]["type"], "web_search_20250305");
  EXPECT_EQ(tools[0]["name"], "web_search");
  EXPECT_EQ(tools[0]["max_uses"], kAnthropicWebSearchMaxUses);

  request.tools = {{"read", "Reads a file.", json::object()}};
  tools = json::parse(build_anthropic_request(request))["tools"];
  ASSERT_EQ(tools.size(), 2u);
  EXPECT_EQ(tools[0]["name"], "read");
  EXPECT_EQ(tools[1]["type"], "web_search_20250305");
  // The cache breakpoint stays on the last tool.
  EXPECT_TRUE(tools[1].contains("cache_control"));
  request.web_search = false;
  EXPECT_EQ(json::parse(build_anthropic_request(request))["tools"].size(), 1u);
}

TEST(AnthropicWebSearchTest, TheSearchBecomesABlockWithItsQueryAndResults) {
  AnthropicSearchStream stream;
  const core::AssistantMessage message = documented_anthropic_turn(stream);
  ASSERT_TRUE(stream.error().empty()) << stream.error();
  EXPECT_EQ(message.stop_reason, core::StopReason::kEndTurn);
  const auto searches = core::web_searches_of(message);
  ASSERT_EQ(searches.size(), 1u);
  EXPECT_EQ(searches[0].id, "srvtoolu_01");
  EXPECT_EQ(searches[0].query, "claude shannon birth date");
  ASSERT_EQ(searches[0].results.size(), 2u);
  EXPECT_EQ(searches[0].results[0].title, "Claude Shannon - Wikipedia");
  EXPECT_EQ(searches[0].results[1].url, "https://example.org/shannon");
  EXPECT_TRUE(searches[0].error.empty());
  EXPECT_EQ(json::parse(searches[0].replay), json::array({kServerToolUse, kSearchResult}));
}

TEST(AnthropicWebSearchTest, CitedTextContinuesTheSentenceAndKeepsItsCitation) {
  AnthropicSearchStream stream;
  const core::AssistantMessage message = documented_anthropic_turn(stream);
  const std::string answer =
      "I'll search for when Claude Shannon was born.\n\nBased on the search results, Claude "
      "Shannon was born on April 30, 1916";
  EXPECT_EQ(core::assistant_text(message), answer);
  EXPECT_EQ(stream.streamed_text(), answer);
  const auto citations = core::citations_of(message);
  ASSERT_EQ(citations.size(), 1u);
  EXPECT_EQ(citations[0].url, "https://en.wikipedia.org/wiki/Claude_Shannon");
  EXPECT_EQ(citations[0].title, "Claude Shannon - Wikipedia");
  EXPECT_EQ(json::parse(citations[0].replay), kAnthropicCitation);
}

TEST(AnthropicWebSearchTest, AFailedSearchKeepsItsErrorCode) {
  AnthropicSearchStream stream;
  stream.start(0, kServerToolUse);
  stream.stop(0);
  const json failed = {
      {"type", "web_search_tool_result"},
      {"tool_use_id", "srvtoolu_01"},
      {"content", {{"type", "web_search_tool_result_error"}, {"error_code", "max_uses_exceeded"}}}};
  stream.start(1, failed);
  stream.stop(1);
  stream.text(2, "I could not search.");
  const core::AssistantMessage message = stream.finish();
  const auto searches = core::web_searches_of(message);
  ASSERT_EQ(searches.size(), 1u);
  EXPECT_EQ(searches[0].query, "claude shannon birth date");  // the input came whole
  EXPECT_EQ(searches[0].error, "max_uses_exceeded");
  EXPECT_TRUE(searches[0].results.empty());
  EXPECT_EQ(json::parse(searches[0].replay), json::array({kServerToolUse, failed}));
}

TEST(AnthropicWebSearchTest, AnEndlessQueryIsCutWithAnError) {
  AnthropicSearchStream stream;
  stream.start(0, {{"type", "server_tool_use"},
                   {"id", "srvtoolu_01"},
                   {"name", "web_search"},
                   {"input", json::object()}});
  const std::string chunk(4096, 'a');
  for (std::size_t sent = 0; sent <= kMaxSearchInputBytes; sent += chunk.size()) {
    stream.delta(0, {{"type", "input_json_delta"}, {"partial_json", chunk}});
  }
  EXPECT_NE(stream.error().find("web search query longer than"), std::string::npos);
}

TEST(AnthropicWebSearchTest, HistorySendsTheBlocksBackUnchanged) {
  AnthropicSearchStream stream;
  const core::AssistantMessage reply = documented_anthropic_turn(stream);
  const std::vector<core::Message> history = {
      core::UserMessage{core::text_content("When was Claude Shannon born?")}, reply,
      core::UserMessage{core::text_content("And where?")}};
  core::ProviderRequest request = testing::request_over(history, "claude-sonnet-4-5");
  request.web_search = true;
  const json content = json::parse(build_anthropic_request(request))["messages"][1]["content"];
  ASSERT_EQ(content.size(), 5u) << content.dump(1);
  EXPECT_EQ(content[0],
            json({{"type", "text"}, {"text", "I'll search for when Claude Shannon was born."}}));
  EXPECT_EQ(content[1], kServerToolUse);
  EXPECT_EQ(content[2], kSearchResult);
  EXPECT_EQ(content[3], json({{"type", "text"}, {"text", "Based on the search results, "}}));
  EXPECT_EQ(content[4], json({{"type", "text"},
                              {"text", "Claude Shannon was born on April 30, 1916"},
                              {"citations", json::array({kAnthropicCitation})}}));
  // The encrypted parts, byte for byte.
  EXPECT_EQ(content[2]["content"][0]["encrypted_content"], "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5");
  EXPECT_EQ(content[4]["citations"][0]["encrypted_index"], "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm");
}

TEST(AnthropicWebSearchTest, AnotherProtocolsSearchesAndCitationsStayHome) {
  core::WebSearchBlock search{.id = "ws_1",
                              .query = "q",
                              .results = {},
                              .error = {},
                              .replay = R"({"type":"web_search_call","id":"ws_1"})"};
  core::TextBlock text{.text = "Cited.",
                       .citations = {{"https://example.org", "Example", R"({"x":1})"}},
                       .glued = false};
  const std::vector<core::Message> history = {
      core::UserMessage{core::text_content("q")},
      testing::assistant_message({search, text}, "openai-responses")};
  const json content = json::parse(build_anthropic_request(
      testing::request_over(history, "claude-sonnet-4-5")))["messages"][1]["content"];
  EXPECT_EQ(content, json::array({{{"type", "text"}, {"text", "Cited."}}}));
}

TEST(AnthropicWebSearchTest, AnUnansweredSearchIsNotSentBack) {
  // A stream cut after the server_tool_use: the service would reject the lone block.
  AnthropicSearchStream stream;
  stream.start(0, kServerToolUse);
  stream.stop(0);
  stream.text(1, "Searching.");
  const core::AssistantMessage reply = stream.finish();
  ASSERT_EQ(core::web_searches_of(reply).size(), 1u);
  EXPECT_TRUE(core::web_searches_of(reply)[0].replay.empty());
  const std::vector<core::Message> history = {core::UserMessage{core::text_content("q")}, reply};
  const json content = json::parse(build_anthropic_request(
      testing::request_over(history, "claude-sonnet-4-5")))["messages"][1]["content"];
  EXPECT_EQ(content, json::array({{{"type", "text"}, {"text", "Searching."}}}));
}

}  // namespace
}  // namespace nib::provider
