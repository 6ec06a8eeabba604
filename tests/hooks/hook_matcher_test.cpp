#include "hooks/hook_matcher.hpp"

#include <gtest/gtest.h>

namespace nib::hooks {
namespace {

HookMatcher matcher(const std::string& pattern) {
  auto compiled = HookMatcher::compile(pattern);
  EXPECT_TRUE(compiled.ok()) << compiled.error();
  return compiled.value();
}

TEST(HookMatcherTest, EmptyAndStarMatchEverything) {
  EXPECT_TRUE(matcher("").matches("anything"));
  EXPECT_TRUE(matcher("*").matches("mcp__x__y"));
  EXPECT_TRUE(HookMatcher().matches("bash"));
}

TEST(HookMatcherTest, WordListsMatchWholeNamesOnly) {
  const HookMatcher edit_or_write = matcher("Edit|Write");
  EXPECT_TRUE(edit_or_write.matches("Edit"));
  EXPECT_TRUE(edit_or_write.matches("Write"));
  EXPECT_FALSE(edit_or_write.matches("MultiEdit"));
  EXPECT_FALSE(edit_or_write.matches("edit")) << "case-sensitive, as in Claude Code";
}

TEST(HookMatcherTest, OtherPatternsAreRegularExpressionsSearchedInTheName) {
  EXPECT_TRUE(matcher("mcp__memory__.*").matches("mcp__memory__create_entities"));
  EXPECT_TRUE(matcher("mcp__.*").matches("mcp__github__search"));
  EXPECT_FALSE(matcher("mcp__.*").matches("bash"));
  EXPECT_TRUE(matcher("Notebook.*").matches("NotebookEdit"));
  EXPECT_FALSE(HookMatcher::compile("[").ok());
}

TEST(HookMatcherTest, ToolsMatchUnderNibsAndClaudesNames) {
  EXPECT_TRUE(matcher("Bash").matches_tool("bash"));
  EXPECT_TRUE(matcher("bash").matches_tool("bash"));
  EXPECT_TRUE(matcher("Edit|Write").matches_tool("edit"));
  EXPECT_TRUE(matcher("MultiEdit").matches_tool("edit"));
  EXPECT_TRUE(matcher("Glob").matches_tool("find"));
  EXPECT_TRUE(matcher("Agent").matches_tool("task"));
  EXPECT_FALSE(matcher("Bash").matches_tool("read"));
  EXPECT_TRUE(matcher("mcp__.*").matches_tool("mcp__github__search"));
  // apply_patch does Edit's and Write's job: a hook guarding them sees its patches.
  EXPECT_TRUE(matcher("Edit|Write").matches_tool("apply_patch"));
  EXPECT_TRUE(matcher("Write").matches_tool("apply_patch"));
  EXPECT_TRUE(matcher("apply_patch").matches_tool("apply_patch"));
  EXPECT_TRUE(matcher("(Edit|Write)").matches_tool("apply_patch"));
  EXPECT_FALSE(matcher("Bash").matches_tool("apply_patch"));
}

}  // namespace
}  // namespace nib::hooks
