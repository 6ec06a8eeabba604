// End-to-end: the plan the model keeps with todo_write, through the real nib binary against the
// mock OpenAI server: the system prompt says when to keep one, stream-json emits each change as
// a "plan" line, a refused plan reaches the model as an error, and print mode's stderr shows
// the progress. (Restoring it on -c is in interactive_e2e_test: the screen shows it.)

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

const std::string kPlan =
    R"({"items":[{"content":"Read the parser","status":"completed"},)"
    R"({"content":"Add tests","status":"in_progress"},{"content":"Update docs","status":"pending"}]})";

class PlanTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock-model"}};
  }
  NibResult run(std::vector<std::string> args) { return run_nib(args, dir_.path(), env()); }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(PlanTest, StreamJsonEmitsEachPlanWhileTheCallRuns) {
  server_.enqueue(MockReply::tool_calls({{"call_plan", "todo_write", kPlan}}));
  server_.enqueue(MockReply::text("Planned."));
  const auto result = run({"-p", "refactor the parser", "--output-format", "stream-json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;

  std::istringstream lines(result.out);
  std::string line;
  std::vector<std::string> types;
  json plan;
  while (std::getline(lines, line)) {
    const json event = json::parse(line);
    types.push_back(event["type"]);
    if (event["type"] == "plan") plan = event;
  }
  EXPECT_EQ(plan, json::parse(R"({"type":"plan","items":[
      {"content":"Read the parser","status":"completed"},
      {"content":"Add tests","status":"in_progress"},
      {"content":"Update docs","status":"pending"}]})"));
  const auto at = [&](const std::string& type) {
    return std::find(types.begin(), types.end(), type) - types.begin();
  };
  EXPECT_LT(at("tool_running"), at("plan"));
  EXPECT_LT(at("plan"), at("tool_settled"));

  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  const std::string system = requests[0].body["messages"][0]["content"];
  EXPECT_THAT(system, HasSubstr("For a task of 3 or more steps"));
  EXPECT_THAT(requests[1].body["messages"].back()["content"].get<std::string>(),
              HasSubstr("Plan updated (1 of 3 done; now: Add tests)"));
}

TEST_F(PlanTest, ARefusedPlanIsAnErrorForTheModelAndNoPlanLine) {
  server_.enqueue(MockReply::tool_calls(
      {{"call_plan", "todo_write",
        R"({"items":[{"content":"A","status":"in_progress"},{"content":"B","status":"in_progress"}]})"}}));
  server_.enqueue(MockReply::text("Fixed."));
  const auto result = run({"-p", "go", "--output-format", "stream-json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, ::testing::Not(HasSubstr(R"("type":"plan")")));
  const json result_message = server_.requests().at(1).body["messages"].back();
  EXPECT_THAT(result_message["content"].get<std::string>(),
              HasSubstr("at most one item may be in_progress, but item 1 (\"A\") and item 2 "
                        "(\"B\") both are"));
}

TEST_F(PlanTest, PrintModeShowsTheProgressOnStderr) {
  server_.enqueue(MockReply::tool_calls({{"call_plan", "todo_write", kPlan}}));
  server_.enqueue(MockReply::text("Planned."));
  const auto result = run({"-p", "go"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "Planned.\n");
  EXPECT_THAT(result.err, HasSubstr("✓ todo_write 1 of 3 done; now: Add tests")) << result.err;
}

}  // namespace
}  // namespace nib::testing
