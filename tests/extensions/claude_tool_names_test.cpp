#include "extensions/claude_tool_names.hpp"

#include <gtest/gtest.h>

namespace nib::extensions {
namespace {

TEST(ClaudeToolNamesTest, MapsClaudeCodesNamesToNibsTools) {
  EXPECT_EQ(nib_tool_name("Read"), "read");
  EXPECT_EQ(nib_tool_name("Grep"), "grep");
  EXPECT_EQ(nib_tool_name("Glob"), "find");
  EXPECT_EQ(nib_tool_name("LS"), "ls");
  EXPECT_EQ(nib_tool_name("Bash"), "bash");
  EXPECT_EQ(nib_tool_name("Edit"), "edit");
  EXPECT_EQ(nib_tool_name("MultiEdit"), "edit");
  EXPECT_EQ(nib_tool_name("Write"), "write");
  EXPECT_EQ(nib_tool_name("Task"), "task");
  EXPECT_EQ(nib_tool_name("Agent"), "task");
  EXPECT_EQ(nib_tool_name("TodoWrite"), "todo_write");
  EXPECT_EQ(nib_tool_name("Skill"), "skill");
  EXPECT_EQ(claude_tool_aliases().size(), 12u);
}

TEST(ClaudeToolNamesTest, OtherNamesPassThroughUnchanged) {
  EXPECT_EQ(nib_tool_name("read"), "read");
  EXPECT_EQ(nib_tool_name("READ"), "READ");
  EXPECT_EQ(nib_tool_name("WebFetch"), "WebFetch");
  EXPECT_EQ(nib_tool_name("mcp__github__create_issue"), "mcp__github__create_issue");
}

TEST(ClaudeToolNamesTest, SplitsListsAtCommasAndBlanksOutsideParentheses) {
  EXPECT_EQ(split_tool_list("Read, Grep,Glob  Bash"),
            (std::vector<ToolEntry>{{"Read", {}}, {"Grep", {}}, {"Glob", {}}, {"Bash", {}}}));
  EXPECT_EQ(split_tool_list("Agent(worker, researcher), Read Bash(git status)"),
            (std::vector<ToolEntry>{
                {"Agent", "worker, researcher"}, {"Read", {}}, {"Bash", "git status"}}));
  EXPECT_EQ(split_tool_list("Bash(git:*"), (std::vector<ToolEntry>{{"Bash", "git:*"}}));
  EXPECT_TRUE(split_tool_list(" , ,\t").empty());
  EXPECT_EQ(split_tool_list("Task()"), (std::vector<ToolEntry>{{"Task", ""}}));
}

}  // namespace
}  // namespace nib::extensions
