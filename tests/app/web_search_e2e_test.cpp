// End-to-end: the real nib binary with --web-search over each protocol. The mock model server
// streams a hosted search and a cited answer as each service does (see the builders in
// support/mock_anthropic_replies.hpp and support/mock_responses_replies.hpp); nib must offer
// the tool, print the search and the answer, keep both in the session, and send them back
// with the history when the session is continued.

#include <gtest/gtest.h>

#include "support/mock_anthropic_replies.hpp"
#include "support/mock_model_server.hpp"
#include "support/mock_responses_replies.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

const MockSearchResult kShannon{"Claude Shannon - Wikipedia",
                                "https://en.wikipedia.org/wiki/Claude_Shannon",
                                "EqgfCioIARgBIiQ3-shannon"};

class WebSearchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directory(dir_.path() / "run");
    std::filesystem::permissions(dir_.path() / "run", std::filesystem::perms::owner_all);
  }
  std::map<std::string, std::string> common_env() const {
    return {{"XDG_DATA_HOME", (dir_.path() / "data").string()},
            {"XDG_RUNTIME_DIR", (dir_.path() / "run").string()}};
  }
  std::map<std::string, std::string> anthropic_env() const {
    auto env = common_env();
    env["ANTHROPIC_BASE_URL"] = server_.origin();
    env["ANTHROPIC_API_KEY"] = "sk-ant-test";
    return env;
  }
  std::map<std::string, std::string> openai_env() const {
    auto env = common_env();
    env["OPENAI_BASE_URL"] = server_.base_url();
    env["NIB_MODEL"] = "mock-model";
    return env;
  }
  static bool offers_web_search(const json& tools, const char* type) {
    for (const json& tool : tools) {
      if (tool.value("type", "") == type) return true;
    }
    return false;
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(WebSearchTest, AnthropicSearchesCitesAndSendsTheBlocksBackOnContinue) {
  server_.enqueue(MockAnthropicStream()
                      .text("I'll search for that.")
                      .web_search("srvtoolu_01", "claude shannon birth date", {kShannon})
                      .text("Based on the search results, ")
                      .cited_text("Claude Shannon was born on April 30, 1916.", kShannon)
                      .finished());
  const auto first = run_nib({"-p", "When was Claude Shannon born?", "--web-search"}, dir_.path(),
                             anthropic_env());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out,
            "I'll search for that.\n\nBased on the search results, Claude Shannon was born on "
            "April 30, 1916.\n");
  EXPECT_TRUE(contains(first.err, "searched the web: claude shannon birth date (1 result)"))
      << first.err;
  EXPECT_TRUE(contains(first.err,
                       "cited: Claude Shannon - Wikipedia "
                       "<https://en.wikipedia.org/wiki/Claude_Shannon>"))
      << first.err;
  ASSERT_EQ(server_.requests().size(), 1u);
  const json tools = server_.requests()[0].body["tools"];
  ASSERT_TRUE(offers_web_search(tools, "web_search_20250305")) << tools.dump();

  server_.enqueue(anthropic_text("In Petoskey, Michigan."));
  const auto second = run_nib({"-c", "-p", "Where?", "--web-search"}, dir_.path(), anthropic_env());
  ASSERT_EQ(second.exit_code, 0) << second.err;
  ASSERT_EQ(server_.requests().size(), 2u);
  const json replayed = server_.requests()[1].body["messages"][1];
  ASSERT_EQ(replayed["role"], "assistant");
  const json& content = replayed["content"];
  ASSERT_EQ(content.size(), 5u) << content.dump(1);
  EXPECT_EQ(content[1], json::parse(R"({"type": "server_tool_use", "id": "srvtoolu_01",
      "name": "web_search", "input": {"query": "claude shannon birth date"}})"));
  EXPECT_EQ(content[2]["type"], "web_search_tool_result");
  EXPECT_EQ(content[2]["tool_use_id"], "srvtoolu_01");
  EXPECT_EQ(content[2]["content"][0]["encrypted_content"], kShannon.encrypted_content);
  EXPECT_EQ(content[4]["citations"][0]["encrypted_index"], "Eo8BCioIAhgBIiQ-mock-index");
  EXPECT_EQ(content[4]["text"], "Claude Shannon was born on April 30, 1916.");
}

TEST_F(WebSearchTest, ResponsesSearchesCitesAndSendsTheItemBackOnContinue) {
  const json citation = {{"type", "url_citation"},
                         {"start_index", 0},
                         {"end_index", 20},
                         {"url", "https://example.com/otters"},
                         {"title", "Otters are back"}};
  server_.enqueue(MockResponsesStream()
                      .web_search("ws_01", "otters river news",
                                  {"https://example.com/otters", "https://example.org/river"})
                      .text("Otters are back in the river.", 2, json::array({citation}))
                      .completed());
  const auto first = run_nib({"-p", "Good news?", "--web-search", "--api", "openai-responses"},
                             dir_.path(), openai_env());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, "Otters are back in the river.\n");
  EXPECT_TRUE(contains(first.err, "searched the web: otters river news (2 results)")) << first.err;
  EXPECT_TRUE(contains(first.err, "cited: Otters are back <https://example.com/otters>"))
      << first.err;
  const json body = server_.requests()[0].body;
  ASSERT_TRUE(offers_web_search(body["tools"], "web_search")) << body["tools"].dump();
  EXPECT_TRUE(contains(body["include"].dump(), "web_search_call.action.sources"));

  server_.enqueue(responses_text("More otters."));
  const auto second = run_nib({"-c", "-p", "More?", "--web-search", "--api", "openai-responses"},
                              dir_.path(), openai_env());
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const json input = server_.requests()[1].body["input"];
  ASSERT_GE(input.size(), 3u) << input.dump(1);
  EXPECT_EQ(input[1], json::parse(R"({"type": "web_search_call", "id": "ws_01",
      "status": "completed", "action": {"type": "search", "query": "otters river news",
      "sources": [{"type": "url", "url": "https://example.com/otters"},
                  {"type": "url", "url": "https://example.org/river"}]}})"));
  EXPECT_EQ(input[2]["content"][0]["text"], "Otters are back in the river.");
}

TEST_F(WebSearchTest, StreamJsonEmitsTheSearchAsAnEvent) {
  server_.enqueue(MockAnthropicStream()
                      .web_search("srvtoolu_01", "shannon", {kShannon})
                      .cited_text("Born 1916.", kShannon)
                      .finished());
  const auto result =
      run_nib({"-p", "when?", "--web-search", "--output-format", "stream-json", "--no-session"},
              dir_.path(), anthropic_env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.out,
                       R"({"id":"srvtoolu_01","query":"shannon","results":[{"title":"Claude )"
                       R"(Shannon - Wikipedia","url":"https://en.wikipedia.org/wiki/Claude_)"
                       R"(Shannon"}],"type":"web_search"})"))
      << result.out;
}

TEST_F(WebSearchTest, ReadOnlyModeStillOffersTheSearchTheServiceRuns) {
  server_.enqueue(anthropic_text("Nothing to search."));
  const auto result =
      run_nib({"-p", "hi", "--web-search", "--permission-mode", "read-only", "--no-session"},
              dir_.path(), anthropic_env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(offers_web_search(server_.requests()[0].body["tools"], "web_search_20250305"));
}

TEST_F(WebSearchTest, ChatCompletionsSaysInOneLineThatItHasNoSearchAndGoesOn) {
  server_.enqueue(MockReply::text("Hello."));
  const auto result =
      run_nib({"-p", "hi", "--web-search", "--no-session"}, dir_.path(), openai_env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "Hello.\n");
  EXPECT_TRUE(contains(result.err,
                       "nib: web search is off: the openai-chat protocol has no "
                       "hosted web search"))
      << result.err;
  EXPECT_FALSE(contains(server_.requests()[0].body.dump(), "web_search"));
}

TEST_F(WebSearchTest, WithoutTheFlagOrSettingNoSearchIsOffered) {
  server_.enqueue(anthropic_text("Hi."));
  const auto result = run_nib({"-p", "hi", "--no-session"}, dir_.path(), anthropic_env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(contains(server_.requests()[0].body.dump(), "web_search"));
}

// Claude Code's WebSearch in an agent's tools is the service's hosted search: the agent that
// lists it searches, the one that does not, does not, and no line calls it missing.
TEST_F(WebSearchTest, AnAgentListingWebSearchGetsTheHostedSearch) {
  dir_.write(".claude/agents/researcher.md",
             "---\nname: researcher\ndescription: Looks things up\ntools: Read, WebSearch\n---\n"
             "Research.\n");
  dir_.write(".claude/agents/reader.md",
             "---\nname: reader\ndescription: Reads files\ntools: Read\n---\nRead.\n");
  const auto task = [](const std::string& agent) {
    return json{{"description", "look"}, {"prompt", "look it up"}, {"agent", agent}}.dump();
  };
  server_.enqueue(responses_function_calls({{"call_1", "task", task("researcher")}}));
  server_.enqueue(responses_text("Found it."));
  server_.enqueue(responses_function_calls({{"call_2", "task", task("reader")}}));
  server_.enqueue(responses_text("Read it."));
  server_.enqueue(responses_text("Done."));
  const auto result = run_nib({"-p", "Look it up", "--web-search", "--api", "openai-responses"},
                              dir_.path(), openai_env());

  ASSERT_EQ(result.exit_code, 0) << result.err;
  ASSERT_EQ(server_.requests().size(), 5u);
  EXPECT_TRUE(offers_web_search(server_.requests()[1].body["tools"], "web_search"));
  EXPECT_FALSE(offers_web_search(server_.requests()[3].body["tools"], "web_search"));
  EXPECT_FALSE(contains(result.err, "WebSearch")) << result.err;
}

}  // namespace
}  // namespace nib::testing
