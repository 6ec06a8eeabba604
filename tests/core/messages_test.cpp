#include "core/messages.hpp"

#include <gtest/gtest.h>

namespace nib::core {
namespace {

AssistantMessage reply(std::vector<AssistantBlock> blocks,
                       StopReason stop_reason = StopReason::kEndTurn) {
  AssistantMessage message;
  message.blocks = std::move(blocks);
  message.stop_reason = stop_reason;
  return message;
}

TEST(AssistantTextTest, SeparatesTextBlocksWithABlankLine) {
  EXPECT_EQ(assistant_text(reply({TextBlock{"only"}})), "only");
  EXPECT_EQ(assistant_text(reply({TextBlock{"Let me look."}, ToolCall{"c", "ls", "{}"},
                                  ThinkingBlock{"hmm"}, TextBlock{""}, TextBlock{"Found it."}})),
            "Let me look.\n\nFound it.");  // empty blocks add no separator
  EXPECT_EQ(assistant_text(reply({})), "");
}

TEST(IsEmptyReplyTest, OnlyANormalEndWithoutTextOrCallsIsEmpty) {
  EXPECT_TRUE(is_empty_reply(reply({})));
  EXPECT_TRUE(is_empty_reply(reply({TextBlock{" \n\t"}})));
  EXPECT_TRUE(is_empty_reply(reply({ThinkingBlock{"thought, said nothing"}})));
  EXPECT_FALSE(is_empty_reply(reply({TextBlock{"hi"}})));
  EXPECT_FALSE(is_empty_reply(reply({ToolCall{"c", "ls", "{}"}}, StopReason::kToolUse)));
  EXPECT_FALSE(is_empty_reply(reply({ToolCall{"c", "ls", "{}"}})));
  EXPECT_FALSE(is_empty_reply(reply({}, StopReason::kMaxTokens)));
  EXPECT_FALSE(is_empty_reply(reply({}, StopReason::kError)));
  EXPECT_FALSE(is_empty_reply(reply({}, StopReason::kAborted)));
}

}  // namespace
}  // namespace nib::core
