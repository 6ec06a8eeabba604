#include "agent/subagent_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace nib::agent {
namespace {

using ::testing::HasSubstr;

core::AssistantMessage reply_with(std::vector<core::AssistantBlock> blocks) {
  core::AssistantMessage message;
  message.blocks = std::move(blocks);
  return message;
}

SubagentSummary summary(core::RunStopReason reason, std::string answer) {
  SubagentSummary out;
  out.agent_id = "explore-2";
  out.agent_name = "explore";
  out.end.reason = reason;
  out.end.turns = 3;
  out.end.usage = {10'000, 2'000, 300, 45};
  out.tool_calls = 1;
  out.duration = std::chrono::milliseconds(4'250);
  out.answer = std::move(answer);
  return out;
}

TEST(FinalAnswerTest, IsTheTextOfTheLastReplyThatHasAny) {
  const std::vector<core::Message> history{
      core::UserMessage{core::text_content("go")},
      reply_with({core::TextBlock{"first"}, core::TextBlock{"second"}}),
      core::ToolResultMessage{},
      reply_with({core::ToolCall{"c1", "read", "{}"}}),
      reply_with({core::TextBlock{"  \n"}}),
  };
  EXPECT_EQ(final_answer(history), "first\n\nsecond");
  EXPECT_EQ(final_answer({core::UserMessage{core::text_content("go")}}), "");
}

TEST(SummaryFooterTest, NamesAgentTurnsCallsTokensAndTime) {
  EXPECT_EQ(summary_footer(summary(core::RunStopReason::kDone, "x")),
            "[explore-2 (explore) · 3 turns · 1 tool call · 12,345 tokens · 4.2 s]");
}

TEST(TaskOutputTest, AnAnswerIsASuccessWithTheFooterBelowIt) {
  const core::ToolOutput output =
      task_output(summary(core::RunStopReason::kDone, "It is in a.cpp"));
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.output,
            "It is in a.cpp\n\n[explore-2 (explore) · 3 turns · 1 tool call · "
            "12,345 tokens · 4.2 s]");
}

TEST(TaskOutputTest, NoAnswerIsNeverAnEmptySuccess) {
  const core::ToolOutput output = task_output(summary(core::RunStopReason::kDone, ""));
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("ended without giving an answer"));
  EXPECT_THAT(output.output, HasSubstr("It gave no answer."));
}

TEST(TaskOutputTest, AFailureCarriesTheLastErrorAndThePartialAnswer) {
  SubagentSummary failed = summary(core::RunStopReason::kError, "half of it");
  failed.end.error_message = "the service answered 500";
  const core::ToolOutput output = task_output(failed);
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output,
              HasSubstr("Error: the subagent explore-2 failed: the service "
                        "answered 500.\nIts answer so far:\nhalf of it\n[explore-2"));
}

TEST(TaskOutputTest, AnInterruptionAndTheTurnLimitSaySo) {
  EXPECT_THAT(task_output(summary(core::RunStopReason::kAborted, "")).output,
              HasSubstr("was interrupted by the user before it finished"));
  SubagentSummary limited = summary(core::RunStopReason::kMaxTurns, "so far");
  limited.end.error_message = "the run reached its turn limit of 3";
  const core::ToolOutput output = task_output(limited);
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("stopped before it finished: the run reached its turn "
                                       "limit of 3"));
  EXPECT_THAT(output.output, HasSubstr("so far"));
}

}  // namespace
}  // namespace nib::agent
