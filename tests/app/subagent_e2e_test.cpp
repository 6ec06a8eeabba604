// End-to-end: the real nib binary hands work to subagents through the task tool, against the
// mock OpenAI server (one task at a time, so the requests come in a known order).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class SubagentTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock-model"}};
  }
  NibResult run(std::vector<std::string> args) { return run_nib(args, dir_.path(), env()); }

  static std::vector<std::string> tool_names(const json& body) {
    std::vector<std::string> names;
    for (const auto& tool : body["tools"]) names.push_back(tool["function"]["name"]);
    return names;
  }

  static std::string task_args(const std::string& prompt, const std::string& agent) {
    return json{{"description", "find it"}, {"prompt", prompt}, {"agent", agent}}.dump();
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(SubagentTest, ATaskRunsASubagentWhoseAnswerTheModelReceives) {
  dir_.write("VERSION", "1.2.3\n");
  server_.enqueue(MockReply::tool_calls(
      {{"call_task", "task", task_args("What version is this project?", "explore")}}));
  server_.enqueue(MockReply::tool_calls({{"call_read", "read", R"({"path":"VERSION"})"}}));
  server_.enqueue(MockReply::text("The version is 1.2.3."));
  server_.enqueue(MockReply::text("Version 1.2.3."));
  const auto result = run({"-p", "which version?"});

  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "Version 1.2.3.\n");
  EXPECT_THAT(result.err, HasSubstr("  explore-1: ✓ read VERSION")) << result.err;
  EXPECT_THAT(result.err, HasSubstr("with 1 subagent")) << result.err;
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_THAT(tool_names(requests[0].body), ::testing::Contains("task"));
  // The subagent: a fresh history whose first message is the prompt, read-only tools.
  const json& sub = requests[1].body;
  ASSERT_EQ(sub["messages"].size(), 2u);
  EXPECT_EQ(sub["messages"][1]["content"], "What version is this project?");
  EXPECT_THAT(tool_names(sub), ::testing::UnorderedElementsAre("read", "grep", "find", "ls"));
  // The parent's task result: the answer and the footer.
  const json& parent = requests[3].body;
  const std::string task_result = parent["messages"].back()["content"].dump();
  EXPECT_THAT(task_result, HasSubstr("The version is 1.2.3."));
  EXPECT_THAT(task_result, HasSubstr("[explore-1 (explore) · 2 turns · 1 tool call · "));
}

TEST_F(SubagentTest, StreamJsonTagsTheSubagentsEventsWithTheirTaskCall) {
  server_.enqueue(MockReply::tool_calls({{"call_task", "task", task_args("say hi", "general")}}));
  server_.enqueue(MockReply::text("hi"));
  server_.enqueue(MockReply::text("it said hi"));
  const auto result = run({"-p", "go", "--output-format", "stream-json"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::istringstream lines(result.out);
  std::string line;
  std::vector<std::string> nested;
  json last;
  while (std::getline(lines, line)) {
    last = json::parse(line);
    if (last.contains("parent_tool_call_id")) {
      EXPECT_EQ(last["parent_tool_call_id"], "call_task");
      EXPECT_EQ(last["agent_id"], "general-1");
      EXPECT_EQ(last["depth"], 1);
      nested.push_back(last["type"]);
    }
  }
  EXPECT_THAT(nested, ::testing::Contains("message_end"));
  EXPECT_EQ(nested.front(), "run_start");
  EXPECT_EQ(nested.back(), "result");
  EXPECT_EQ(last["type"], "result");
  EXPECT_EQ(last["subagents"]["runs"], 1);
}

TEST_F(SubagentTest, AClaudeCodeAgentDefinitionIsUsedAndABrokenOneIsReported) {
  dir_.write(".claude/agents/reviewer.md",
             "---\nname: reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep\n---\n"
             "You review code and list bugs.\n");
  dir_.write(".claude/agents/broken.md", "---\nname: broken\ndescription: [unclosed\n---\nx\n");
  server_.enqueue(
      MockReply::tool_calls({{"call_task", "task", task_args("review a.cpp", "reviewer")}}));
  server_.enqueue(MockReply::text("no bugs"));
  server_.enqueue(MockReply::text("reviewed"));
  const auto result = run({"-p", "review"});

  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("broken.md:")) << result.err;
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  const std::string description = requests[0].body["tools"].dump();
  EXPECT_THAT(description, HasSubstr("reviewer: Reviews code for bugs"));
  const json& sub = requests[1].body;
  EXPECT_THAT(tool_names(sub), ElementsAre("read", "grep"));
  EXPECT_THAT(sub["messages"][0]["content"].get<std::string>(),
              HasSubstr("You review code and list bugs."));
}

TEST_F(SubagentTest, ToolsFlagWithoutTaskOffersNoTask) {
  server_.enqueue(MockReply::text("fine"));
  const auto result = run({"-p", "hi", "--tools", "read,grep"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(tool_names(server_.requests().at(0).body), ElementsAre("read", "grep"));
}

}  // namespace
}  // namespace nib::testing
