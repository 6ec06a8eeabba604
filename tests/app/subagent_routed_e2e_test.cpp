// End-to-end: subagents whose requests reach the mock model server at the same time, each
// answered from its own conversation's script (the subagent's first message is its prompt):
// three at once, one that fails, one past its turn limit, and an interruption mid-task.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <csignal>
#include <fstream>

#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class RoutedSubagentTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()},
            {"NIB_MODEL", "mock-model"},
            {"XDG_DATA_HOME", (dir_.path() / "data").string()}};
  }
  NibResult run(std::vector<std::string> args) { return run_nib(args, dir_.path(), env()); }

  static MockToolCall task(const std::string& id, const std::string& prompt,
                           const std::string& agent = "explore") {
    return {id, "task", json{{"description", "part"}, {"prompt", prompt}, {"agent", agent}}.dump()};
  }

  // The content of the tool message answering `call_id` in the last request of `prompt`'s
  // conversation.
  std::string result_for(const std::string& prompt, const std::string& call_id) {
    const auto requests = server_.requests_for(prompt);
    if (requests.empty()) return "(no request)";
    for (const auto& message : requests.back().body["messages"]) {
      if (message["role"] == "tool" && message["tool_call_id"] == call_id) {
        return message["content"].dump();
      }
    }
    return "(no result)";
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(RoutedSubagentTest, ThreeSubagentsRunAtTheSameTime) {
  server_.enqueue_for(
      "go", MockReply::tool_calls({task("t1", "one"), task("t2", "two"), task("t3", "three")}));
  for (const std::string prompt : {"one", "two", "three"}) {
    // Each first reply waits until all three subagents' requests are in flight: if they ran one
    // after another, none would ever get its answer.
    server_.enqueue_for(prompt, MockReply::text("answer " + prompt).after_peers("trio", 3));
  }
  server_.enqueue_for("go", MockReply::text("all three answered"));
  const auto result = run({"-p", "go"});

  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "all three answered\n");
  for (const auto& [id, prompt] : std::vector<std::pair<std::string, std::string>>{
           {"t1", "one"}, {"t2", "two"}, {"t3", "three"}}) {
    EXPECT_THAT(result_for("go", id), HasSubstr("answer " + prompt));
  }
}

TEST_F(RoutedSubagentTest, AFailedSubagentIsAnErrorResultAndTheParentGoesOn) {
  server_.enqueue_for("go", MockReply::tool_calls({task("t1", "doomed")}));
  server_.enqueue_for("doomed",
                      MockReply::http_error(400, R"({"error":{"message":"the mock refuses"}})"));
  server_.enqueue_for("go", MockReply::text("the helper failed; here is what I know"));
  const auto result = run({"-p", "go"});

  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::string task_result = result_for("go", "t1");
  EXPECT_THAT(task_result, HasSubstr("Error: the subagent explore-1 failed"));
  EXPECT_THAT(task_result, HasSubstr("the mock refuses"));
  EXPECT_THAT(task_result, HasSubstr("It gave no answer."));
}

TEST_F(RoutedSubagentTest, ASubagentStopsAtItsDefinitionsTurnLimit) {
  dir_.write(".nib/agents/brief.md",
             "---\nname: brief\ndescription: answers in one turn\ntools: ls\nmaxTurns: 1\n---\n"
             "Be brief.\n");
  server_.enqueue_for("go", MockReply::tool_calls({task("t1", "look", "brief")}));
  server_.enqueue_for("look", MockReply::tool_calls({{"l1", "ls", "{}"}}));
  server_.enqueue_for("go", MockReply::text("ok"));
  const auto result = run({"-p", "go"});

  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result_for("go", "t1"),
              HasSubstr("stopped before it finished: the run reached its turn limit of 1"));
  EXPECT_EQ(server_.requests_for("look").size(), 1u);
}

TEST_F(RoutedSubagentTest, SigintDuringASubagentsCommandGivesEveryCallOfEveryLevelAResult) {
  ASSERT_EQ(mkfifo((dir_.path() / "sync").c_str(), 0600), 0);
  server_.enqueue_for("go", MockReply::tool_calls({task("t1", "build it", "general")}));
  server_.enqueue_for(
      "build it",
      MockReply::tool_calls(
          {{"b1", "bash", json{{"command", "echo $$ > sync; exec sleep 1000"}}.dump()}}));
  NibProcess nib({"-p", "go", "--output-format", "stream-json"}, dir_.path(), env());
  pid_t pid = 0;
  std::ifstream(dir_.path() / "sync") >> pid;
  ASSERT_GT(pid, 0);
  nib.send_signal(SIGINT);
  const auto result = nib.wait();

  EXPECT_EQ(result.exit_code, 130) << result.err;
  // Both levels' calls ended, the subagent's first, each with its result.
  json subagent_end, task_end;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    const json event = json::parse(line);
    if (event["type"] != "tool_end") continue;
    (event.contains("parent_tool_call_id") ? subagent_end : task_end) = event;
  }
  ASSERT_FALSE(subagent_end.is_null()) << result.out;
  ASSERT_FALSE(task_end.is_null()) << result.out;
  EXPECT_EQ(subagent_end["tool_call_id"], "b1");
  EXPECT_EQ(task_end["tool_call_id"], "t1");
  EXPECT_TRUE(task_end["is_error"].get<bool>());
  EXPECT_THAT(task_end["content"].dump(), HasSubstr("was interrupted by the user"));
  // The subagent's transcript, beside the session, holds its call and that call's result.
  std::vector<std::filesystem::path> transcripts;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(dir_.path() / "data/nib/sessions")) {
    if (entry.path().parent_path().filename() == "subagents") transcripts.push_back(entry.path());
  }
  ASSERT_EQ(transcripts.size(), 1u);
  EXPECT_EQ(transcripts[0].filename(), "t1.jsonl");
  std::ifstream file(transcripts[0]);
  const std::string text((std::istreambuf_iterator<char>(file)), {});
  EXPECT_THAT(text, HasSubstr("\"b1\""));
  EXPECT_THAT(text, HasSubstr("tool_result"));
}

}  // namespace
}  // namespace nib::testing
