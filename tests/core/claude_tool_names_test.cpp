#include "core/claude_tool_names.hpp"

#include <gtest/gtest.h>

namespace nib::core {
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
  EXPECT_EQ(nib_tool_name("WebFetch"), "web_fetch");
  EXPECT_EQ(nib_tool_name("BashOutput"), "job_output");
  EXPECT_EQ(nib_tool_name("KillShell"), "job_kill");
}

// Configuration written for Claude's tools covers the nib tool doing their job: apply_patch
// answers to Edit, MultiEdit and Write.
TEST(ClaudeToolNamesTest, ClaudesToolsCoverTheNibToolsDoingTheirJob) {
  using Names = std::vector<std::string_view>;
  EXPECT_EQ(claude_tools_covering("edit"), (Names{"Edit", "MultiEdit"}));
  EXPECT_EQ(claude_tools_covering("task"), (Names{"Task", "Agent"}));
  EXPECT_EQ(claude_tools_covering("apply_patch"), (Names{"Edit", "MultiEdit", "Write"}));
  EXPECT_EQ(claude_tools_covering("mcp__github__create_issue"), Names{});
  EXPECT_EQ(claude_tool_name("apply_patch"), "apply_patch");
}

TEST(ClaudeToolNamesTest, OtherNamesPassThroughUnchanged) {
  EXPECT_EQ(nib_tool_name("read"), "read");
  EXPECT_EQ(nib_tool_name("READ"), "READ");
  EXPECT_EQ(nib_tool_name("WebSearch"), "WebSearch");
  EXPECT_EQ(nib_tool_name("mcp__github__create_issue"), "mcp__github__create_issue");
}

TEST(ClaudeToolNamesTest, NibsToolsAnswerToTheirFirstClaudeName) {
  EXPECT_EQ(claude_tool_name("bash"), "Bash");
  EXPECT_EQ(claude_tool_name("find"), "Glob");
  EXPECT_EQ(claude_tool_name("ls"), "LS");
  EXPECT_EQ(claude_tool_name("edit"), "Edit");
  EXPECT_EQ(claude_tool_name("task"), "Task");
  EXPECT_EQ(claude_tool_name("web_fetch"), "WebFetch");
  EXPECT_EQ(claude_tool_name("job_output"), "BashOutput");
  EXPECT_EQ(claude_tool_name("job_kill"), "KillShell");
  EXPECT_EQ(claude_tool_name("job_list"), "job_list");
  EXPECT_EQ(claude_tool_name("mcp__github__create_issue"), "mcp__github__create_issue");
  EXPECT_EQ(claude_tool_name("Bash"), "Bash");
}

// Configuration written for Claude Code names these on purpose; they are not typing mistakes.
TEST(ClaudeToolNamesTest, KnowsClaudesToolsNibLacks) {
  for (const char* name :
       {"NotebookRead", "NotebookEdit", "WebSearch", "ExitPlanMode", "TodoRead", "AskUserQuestion",
        "SlashCommand", "ListMcpResourcesTool", "ReadMcpResourceTool"}) {
    EXPECT_TRUE(is_claude_tool_nib_lacks(name)) << name;
    EXPECT_EQ(nib_tool_name(name), name);
  }
  // Tools nib has, under Claude's name or its own, typing mistakes, and case matters.
  for (const char* name : {"Read", "BashOutput", "read", "web_search", "NoteBookRead", "websearch",
                           "mcp__notes__NotebookRead"}) {
    EXPECT_FALSE(is_claude_tool_nib_lacks(name)) << name;
  }
}

}  // namespace
}  // namespace nib::core
