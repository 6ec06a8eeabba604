// End-to-end: the real nib binary in print mode over each wire protocol, with retries, usage
// and cost, and the configuration files.

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

class ProvidersTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> anthropic_env() const {
    return {{"ANTHROPIC_BASE_URL", server_.origin()}, {"ANTHROPIC_API_KEY", "sk-ant-test"}};
  }
  std::map<std::string, std::string> openai_env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock-model"}};
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(ProvidersTest, AnthropicSessionReadsAFileThenAnswers) {
  dir_.write("README.md", "# Demo\nStart with: make run\n");
  server_.enqueue(
      anthropic_tool_use({{"toolu_1", "read", R"({"path":"README.md"})"}}, 4, "Let me look."));
  server_.enqueue(anthropic_text("Run `make run`.", 3));
  const auto result = run_nib({"-p", "How do I start?", "--model", "claude-sonnet-4-6"},
                              dir_.path(), anthropic_env());

  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "Run `make run`.\n");
  EXPECT_TRUE(contains(result.err, "✓ read README.md")) << result.err;
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].path, "/v1/messages");
  EXPECT_EQ(requests[0].header("x-api-key"), "sk-ant-test");
  EXPECT_EQ(requests[0].body["model"], "claude-sonnet-4-6");
  const json& last_turn = requests[1].body["messages"].back();
  EXPECT_EQ(last_turn["role"], "user");
  EXPECT_EQ(last_turn["content"][0]["type"], "tool_result");
  EXPECT_EQ(last_turn["content"][0]["tool_use_id"], "toolu_1");
  EXPECT_TRUE(contains(last_turn["content"].dump(), "Start with: make run"));
}

TEST_F(ProvidersTest, ResponsesSessionRunsAToolThenAnswers) {
  dir_.write("notes.txt", "the answer is 42\n");
  server_.enqueue(responses_function_calls({{"call_a", "read", R"({"path":"notes.txt"})"}}, 5));
  server_.enqueue(responses_text("It is 42.", 2));
  auto env = openai_env();
  env["NIB_MODEL"] = "gpt-5.4";
  const auto result =
      run_nib({"-p", "What is the answer?", "--api", "openai-responses"}, dir_.path(), env);

  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "It is 42.\n");
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].path, "/v1/responses");
  EXPECT_EQ(requests[0].body["model"], "gpt-5.4");
  bool saw_output = false;
  for (const json& item : requests[1].body["input"]) {
    if (item.value("type", "") == "function_call_output") {
      saw_output = true;
      EXPECT_EQ(item["call_id"], "call_a");
      EXPECT_TRUE(contains(item["output"].dump(), "the answer is 42"));
    }
  }
  EXPECT_TRUE(saw_output) << requests[1].body.dump();
}

TEST_F(ProvidersTest, RateLimitIsRetriedAfterRetryAfter) {
  server_.enqueue(
      MockReply::http_error(429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "0"}}));
  server_.enqueue(MockReply::text("Recovered."));
  const auto result = run_nib({"-p", "go"}, dir_.path(), openai_env());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "Recovered.\n");
  EXPECT_TRUE(contains(result.err, "slow down")) << result.err;
  EXPECT_TRUE(contains(result.err, "retrying in 0 ms")) << result.err;
  EXPECT_EQ(server_.requests().size(), 2u);
}

TEST_F(ProvidersTest, OverloadBeforeAnyOutputIsRetried) {
  server_.enqueue(MockReply::http_error(529, R"({"type":"error","error":{"type":
      "overloaded_error","message":"Overloaded"}})",
                                        {{"retry-after", "0"}}));
  server_.enqueue(anthropic_error("overloaded_error", "Overloaded"));
  server_.enqueue(anthropic_text("Third time lucky."));
  dir_.write(".nib/settings.json", R"({"retry": {"baseDelayMs": 1}})");
  auto env = anthropic_env();
  const auto result = run_nib({"-p", "go", "--output-format", "stream-json"}, dir_.path(), env);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  int retries = 0;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    if (json::parse(line)["type"] == "retry") ++retries;
  }
  EXPECT_EQ(retries, 2) << result.out;
  EXPECT_EQ(server_.requests().size(), 3u);
}

TEST_F(ProvidersTest, OverloadAfterOutputStartedIsNotRetried) {
  server_.enqueue(anthropic_error("overloaded_error", "Overloaded", "Half an ans"));
  const auto result = run_nib({"-p", "go"}, dir_.path(), anthropic_env());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(result.out.empty()) << result.out;
  EXPECT_TRUE(contains(result.err, "Overloaded")) << result.err;
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(ProvidersTest, ContextOverflowIsReportedAsSuch) {
  server_.enqueue(
      MockReply::http_error(400, R"({"type":"error","error":{"type":"invalid_request_error",
      "message":"prompt is too long: 210000 tokens > 200000 maximum"}})"));
  const auto result =
      run_nib({"-p", "go", "--output-format", "stream-json"}, dir_.path(), anthropic_env());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(contains(result.out, "larger than the model's context window")) << result.out;
  EXPECT_TRUE(contains(result.out, "prompt is too long")) << result.out;
  EXPECT_TRUE(contains(result.out, R"("error_kind":"context_overflow")")) << result.out;
  EXPECT_EQ(server_.requests().size(), 1u) << "an overflow is not retried as it is";
}

TEST_F(ProvidersTest, JsonResultCarriesUsageAndCostOfAKnownModel) {
  MockAnthropicUsage usage;
  usage.input_tokens = 1000;
  usage.output_tokens = 500;
  usage.cache_read_input_tokens = 2000;
  server_.enqueue(anthropic_text("Done.", 1, "end_turn", usage));
  const auto result =
      run_nib({"-p", "go", "--model", "claude-sonnet-4-6", "--output-format", "json"}, dir_.path(),
              anthropic_env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json out = json::parse(result.out);
  EXPECT_EQ(out["usage"]["input_tokens"], 1000);
  EXPECT_EQ(out["usage"]["output_tokens"], 500);
  EXPECT_EQ(out["usage"]["cache_read_tokens"], 2000);
  // 1000 x $3 + 500 x $15 + 2000 x $0.30, per million tokens.
  EXPECT_NEAR(out["cost_usd"].get<double>(), 0.0111, 1e-9);
}

TEST_F(ProvidersTest, TextModeEndsWithAUsageSummary) {
  server_.enqueue(anthropic_text("Done."));
  const auto result =
      run_nib({"-p", "go", "--model", "claude-haiku-4-5"}, dir_.path(), anthropic_env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "nib: 1 turn, 12 tokens in, 7 out, $0.0000")) << result.err;
}

TEST_F(ProvidersTest, ThinkingFlagReachesTheRequest) {
  server_.enqueue(anthropic_text("Done."));
  const auto result = run_nib({"-p", "go", "--model", "claude-haiku-4-5", "--thinking", "low"},
                              dir_.path(), anthropic_env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json body = server_.requests().at(0).body;
  EXPECT_EQ(body["thinking"]["type"], "enabled") << body.dump();
}

TEST_F(ProvidersTest, CustomProviderFromModelsJson) {
  dir_.write(".nib/models.json", json{{"providers",
                                       {{"local",
                                         {{"api", "openai-chat"},
                                          {"baseUrl", server_.base_url()},
                                          {"defaultModel", "tiny"},
                                          {"models", {{{"id", "tiny"}, {"vision", false}}}}}}}}}
                                     .dump());
  dir_.write(".nib/settings.json", R"({"provider": "local"})");
  server_.enqueue(MockReply::text("Local answer."));
  const auto result = run_nib({"-p", "go"}, dir_.path());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "Local answer.\n");
  EXPECT_EQ(server_.requests().at(0).path, "/v1/chat/completions");
  EXPECT_EQ(server_.requests().at(0).body["model"], "tiny");
}

TEST_F(ProvidersTest, InvalidConfigurationNamesFileFieldAndProblem) {
  dir_.write(".nib/settings.json", R"({"thinking": "maximum"})");
  const auto result = run_nib({"-p", "go"}, dir_.path(), openai_env());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(contains(result.err, ".nib/settings.json: /thinking: ")) << result.err;
}

TEST_F(ProvidersTest, SystemPromptCarriesInstructionFilesAndTheUsersText) {
  dir_.write(".git/HEAD", "ref: refs/heads/main\n");
  dir_.write("AGENTS.md", "Always run make check.\n");
  dir_.write("sub/CLAUDE.md", "Prefer tabs here.\n");
  dir_.write("sub/.config/nib/AGENTS.md", "Answer in English.\n");  // HOME is the cwd
  server_.enqueue(MockReply::text("ok"));
  server_.enqueue(MockReply::text("ok"));
  const auto sub = dir_.path() / "sub";
  ASSERT_EQ(
      run_nib({"-p", "go", "--append-system-prompt", "Be terse."}, sub, openai_env()).exit_code, 0);
  ASSERT_EQ(run_nib({"-p", "go", "--system-prompt", "You are a test double."}, sub, openai_env())
                .exit_code,
            0);
  const auto requests = server_.requests();
  const std::string first = requests.at(0).body["messages"][0]["content"];
  EXPECT_TRUE(contains(first, "You are nib")) << first;
  EXPECT_LT(first.find("Answer in English."), first.find("Always run make check."));
  EXPECT_LT(first.find("Always run make check."), first.find("Prefer tabs here."));
  EXPECT_TRUE(first.ends_with("Be terse.\n")) << first;
  const std::string second = requests.at(1).body["messages"][0]["content"];
  EXPECT_TRUE(second.starts_with("You are a test double.")) << second;
  EXPECT_FALSE(contains(second, "You are nib")) << second;
  EXPECT_TRUE(contains(second, "Always run make check.")) << second;
}

TEST_F(ProvidersTest, ListModelsShowsProvidersAndKeysWithoutPrintingThem) {
  const auto result = run_nib({"--list-models"}, dir_.path(), anthropic_env());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.out, "anthropic (anthropic-messages")) << result.out;
  EXPECT_TRUE(contains(result.out, "ANTHROPIC_API_KEY is set")) << result.out;
  EXPECT_TRUE(contains(result.out, "OPENAI_API_KEY is not set")) << result.out;
  EXPECT_TRUE(contains(result.out, "claude-sonnet-4-6 *")) << result.out;
  EXPECT_FALSE(contains(result.out, "sk-ant-test")) << result.out;
}

}  // namespace
}  // namespace nib::testing
