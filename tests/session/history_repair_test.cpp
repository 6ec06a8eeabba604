#include "session/history_repair.hpp"

#include <gtest/gtest.h>

#include "session/sample_messages.hpp"

namespace nib::session {
namespace {

using testing::assistant_calling;
using testing::assistant_text_message;
using testing::ok_result;
using testing::results_message;
using testing::user_message;

void expect_interrupted(const core::ToolResult& result, const std::string& id,
                        const std::string& name) {
  EXPECT_EQ(result.tool_call_id, id);
  EXPECT_EQ(result.tool_name, name);
  EXPECT_TRUE(result.is_error);
  EXPECT_EQ(core::content_text(result.content), kInterruptedResultText);
  EXPECT_FALSE(result.exit_code.has_value());
}

const core::ToolResultMessage& results_at(const RepairedHistory& history, std::size_t index) {
  return std::get<core::ToolResultMessage>(history.messages.at(index));
}

TEST(HistoryRepairTest, ACompleteHistoryIsKeptAsItIs) {
  const std::vector<core::Message> stored = {
      user_message("hi"), assistant_calling({{"c1", "read"}}),
      results_message({ok_result("c1", "read", "text")}), assistant_text_message("done")};
  const auto repaired = repair_history(stored);
  EXPECT_TRUE(repaired.messages == stored);
  EXPECT_EQ(repaired.synthesized_results, 0u);
  EXPECT_EQ(repaired.dropped_results, 0u);
}

TEST(HistoryRepairTest, EveryCallWithoutAResultGetsAnInterruptedResult) {
  const auto repaired =
      repair_history({user_message("hi"), assistant_calling({{"c1", "bash"}, {"c2", "read"}})});
  ASSERT_EQ(repaired.messages.size(), 3u);
  const auto& results = results_at(repaired, 2).results;
  ASSERT_EQ(results.size(), 2u);
  expect_interrupted(results[0], "c1", "bash");
  expect_interrupted(results[1], "c2", "read");
  EXPECT_EQ(repaired.synthesized_results, 2u);
}

TEST(HistoryRepairTest, APartialBatchIsCompletedInCallOrder) {
  const auto repaired = repair_history(
      {user_message("hi"), assistant_calling({{"c1", "bash"}, {"c2", "read"}, {"c3", "ls"}}),
       results_message({ok_result("c2", "read", "two")})});
  ASSERT_EQ(repaired.messages.size(), 3u);
  const auto& results = results_at(repaired, 2).results;
  ASSERT_EQ(results.size(), 3u);
  expect_interrupted(results[0], "c1", "bash");
  EXPECT_EQ(results[1].tool_call_id, "c2");
  EXPECT_EQ(core::content_text(results[1].content), "two");
  expect_interrupted(results[2], "c3", "ls");
  EXPECT_EQ(repaired.synthesized_results, 2u);
}

TEST(HistoryRepairTest, ABatchWrittenInPartsIsMergedIntoOneMessage) {
  const auto repaired = repair_history(
      {user_message("hi"), assistant_calling({{"c1", "bash"}, {"c2", "read"}}),
       results_message({ok_result("c2", "read", "two")}),
       results_message({ok_result("c1", "bash", "one")}), assistant_text_message("done")});
  ASSERT_EQ(repaired.messages.size(), 4u);
  const auto& results = results_at(repaired, 2).results;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(core::content_text(results[0].content), "one");
  EXPECT_EQ(core::content_text(results[1].content), "two");
  EXPECT_EQ(repaired.synthesized_results, 0u);
}

TEST(HistoryRepairTest, ResultsGoRightAfterTheirCallsEvenWhenTheSessionWentOn) {
  // nib was killed during the tools, resumed without writing the repair, and the user went on.
  const auto repaired = repair_history({user_message("one"), assistant_calling({{"c1", "bash"}}),
                                        user_message("two"), assistant_text_message("ok")});
  ASSERT_EQ(repaired.messages.size(), 5u);
  expect_interrupted(results_at(repaired, 2).results.at(0), "c1", "bash");
  EXPECT_TRUE(std::holds_alternative<core::UserMessage>(repaired.messages[3]));
}

TEST(HistoryRepairTest, ResultsThatAnswerNoCallAreDropped) {
  const auto repaired = repair_history(
      {user_message("hi"), results_message({ok_result("x", "ls", "orphan")}),
       assistant_calling({{"c1", "ls"}}),
       results_message({ok_result("c1", "ls", "first"), ok_result("c1", "ls", "again"),
                        ok_result("c9", "ls", "stranger")})});
  ASSERT_EQ(repaired.messages.size(), 3u);
  const auto& results = results_at(repaired, 2).results;
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(core::content_text(results[0].content), "first");
  EXPECT_EQ(repaired.dropped_results, 3u);
}

TEST(HistoryRepairTest, RepeatedCallIdsEachGetTheirOwnResult) {
  const auto repaired = repair_history({assistant_calling({{"same", "ls"}, {"same", "ls"}}),
                                        results_message({ok_result("same", "ls", "one")})});
  const auto& results = results_at(repaired, 1).results;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(core::content_text(results[0].content), "one");
  expect_interrupted(results[1], "same", "ls");
}

}  // namespace
}  // namespace nib::session
