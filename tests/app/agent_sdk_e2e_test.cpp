// End-to-end: nib as the executable of the official Claude Agent SDK
// (tests/app/fixtures/agent_sdk_client.mjs: query() with pathToClaudeCodeExecutable pointed at
// nib) against the mock model: a prompt and its result's fields, two streamed messages in one
// session, interrupt() while a command runs, a canUseTool callback allowing one call and denying
// another (judged on the host: which files exist), and a permission-mode change.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/mcp_packages.hpp"
#include "support/mock_model_server.hpp"
#include "support/node_fixture.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

std::string agent_sdk() {
  return mcp_package_file("@anthropic-ai/claude-agent-sdk", "package.json");
}

class AgentSdkTest : public ::testing::Test {
 protected:
  json drive(const std::string& scenario) {
    return run_node_fixture(
        std::string(NIB_SOURCE_DIR) + "/tests/app/fixtures/agent_sdk_client.mjs",
        {std::filesystem::path(agent_sdk()).parent_path().string(), NIB_BINARY,
         dir_.path().string(), scenario},
        dir_.path(), {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock-model"}});
  }

  static std::vector<json> of_type(const json& out, const std::string& type) {
    std::vector<json> found;
    for (const json& message : out["messages"]) {
      if (message["type"] == type) found.push_back(message);
    }
    return found;
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(AgentSdkTest, AQueryYieldsInitTheRepliesAndAResult) {
  NIB_SKIP_WITHOUT(agent_sdk());
  dir_.write("a.txt", "alpha\n");
  server_.enqueue(MockReply::tool_calls({{"call_1", "read", R"({"path":"a.txt"})"}}));
  server_.enqueue(MockReply::text("Hello."));
  const json out = drive("query");
  ASSERT_TRUE(out.is_object());
  const auto inits = of_type(out, "system");
  ASSERT_EQ(inits.size(), 1u);
  EXPECT_EQ(inits[0]["subtype"], "init");
  EXPECT_EQ(inits[0]["cwd"], dir_.path().string());
  EXPECT_EQ(inits[0]["model"], "mock-model");
  EXPECT_THAT(inits[0]["tools"].dump(), HasSubstr("\"Read\""));
  const auto replies = of_type(out, "assistant");
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0]["message"]["content"][0]["type"], "tool_use");
  EXPECT_EQ(replies[0]["message"]["content"][0]["name"], "read");
  const auto results = of_type(out, "user");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["message"]["content"][0]["type"], "tool_result");
  EXPECT_THAT(results[0]["message"]["content"].dump(), HasSubstr("alpha"));
  const json& result = out["messages"].back();
  EXPECT_EQ(result["type"], "result");
  EXPECT_EQ(result["subtype"], "success");
  EXPECT_EQ(result["is_error"], false);
  EXPECT_EQ(result["num_turns"], 2);
  EXPECT_EQ(result["result"], "Hello.");
  EXPECT_EQ(result["session_id"], inits[0]["session_id"]);
  EXPECT_TRUE(result["total_cost_usd"].is_number());
  EXPECT_TRUE(result["usage"]["input_tokens"].is_number());
  EXPECT_EQ(result["permission_denials"], json::array());
}

TEST_F(AgentSdkTest, TwoStreamedMessagesShareOneSession) {
  NIB_SKIP_WITHOUT(agent_sdk());
  server_.enqueue(MockReply::text("One."));
  server_.enqueue(MockReply::text("Two."));
  const json out = drive("stream");
  ASSERT_TRUE(out.is_object());
  const auto results = of_type(out, "result");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["result"], "One.");
  EXPECT_EQ(results[1]["result"], "Two.");
  EXPECT_EQ(results[0]["session_id"], results[1]["session_id"]);
  // The second request carries the first exchange: one conversation.
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  const std::string second = requests[1].body["messages"].dump();
  EXPECT_THAT(second, HasSubstr("first question"));
  EXPECT_THAT(second, HasSubstr("One."));
  EXPECT_THAT(second, HasSubstr("second question"));
}

TEST_F(AgentSdkTest, InterruptStopsTheRunningCommandAndEndsTheRunWithAResult) {
  NIB_SKIP_WITHOUT(agent_sdk());
  server_.enqueue(MockReply::tool_calls({{"c1", "bash", R"({"command":"sleep 30; touch late"})"}}));
  const json out = drive("interrupt");
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["interrupt"]["still_queued"], json::array());
  const json& result = out["messages"].back();
  EXPECT_EQ(result["type"], "result");
  EXPECT_EQ(result["subtype"], "error_during_execution");
  EXPECT_EQ(result["is_error"], true);
  EXPECT_FALSE(result["errors"].empty());
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "late"));
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(AgentSdkTest, CanUseToolAllowsOneCallAndDeniesAnother) {
  NIB_SKIP_WITHOUT(agent_sdk());
  server_.enqueue(MockReply::tool_calls({{"c1", "bash", R"({"command":"touch allowed"})"},
                                         {"c2", "bash", R"({"command":"touch denied"})"}}));
  server_.enqueue(MockReply::text("Done."));
  const json out = drive("can-use-tool");
  ASSERT_TRUE(out.is_object());
  ASSERT_EQ(out["asked"].size(), 2u) << out.dump();
  EXPECT_EQ(out["asked"][0]["toolName"], "Bash");
  EXPECT_EQ(out["asked"][0]["toolUseID"], "c1");
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "allowed"));
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "denied"));
  const json& result = out["messages"].back();
  EXPECT_EQ(result["subtype"], "success");
  ASSERT_EQ(result["permission_denials"].size(), 1u);
  EXPECT_EQ(result["permission_denials"][0]["tool_name"], "Bash");
  EXPECT_EQ(result["permission_denials"][0]["tool_use_id"], "c2");
  EXPECT_EQ(result["permission_denials"][0]["tool_input"]["command"], "touch denied");
  // The model was told in the callback's words.
  EXPECT_THAT(server_.requests().at(1).body["messages"].dump(), HasSubstr("not this one"));
}

TEST_F(AgentSdkTest, APermissionModeChangeHoldsForTheNextMessage) {
  NIB_SKIP_WITHOUT(agent_sdk());
  server_.enqueue(MockReply::tool_calls({{"w1", "write", R"({"path":"one.txt","content":"1"})"}}));
  server_.enqueue(MockReply::text("Wrote one."));
  server_.enqueue(MockReply::tool_calls({{"w2", "write", R"({"path":"two.txt","content":"2"})"}}));
  server_.enqueue(MockReply::text("Could not."));
  const json out = drive("mode");
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["mode"]["mode"], "plan");
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "one.txt"));
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "two.txt"));
  EXPECT_EQ(of_type(out, "result").size(), 2u);
}

TEST_F(AgentSdkTest, SetModelHoldsForTheNextMessageAndAnUnknownModelIsAnError) {
  NIB_SKIP_WITHOUT(agent_sdk());
  server_.enqueue(MockReply::text("One."));
  server_.enqueue(MockReply::text("Two."));
  const json out = drive("model");
  ASSERT_TRUE(out.is_object());
  EXPECT_THAT(out["unknownModel"].get<std::string>(), HasSubstr("no-such-model"));
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].body["model"], "mock-model");
  EXPECT_EQ(requests[1].body["model"], "gpt-5.4-mini");
}

}  // namespace
}  // namespace nib::testing
