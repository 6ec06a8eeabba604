#include "extensions/tool_list.hpp"

#include <gtest/gtest.h>

namespace nib::extensions {
namespace {

TEST(ToolListTest, SplitsListsAtCommasAndBlanksOutsideParentheses) {
  EXPECT_EQ(
      split_tool_list("Read, Grep,Glob  Bash"),
      (std::vector<ToolEntry>{
          {"Read", {}, "Read"}, {"Grep", {}, "Grep"}, {"Glob", {}, "Glob"}, {"Bash", {}, "Bash"}}));
  EXPECT_EQ(split_tool_list("Agent(worker, researcher), Read Bash(git status)"),
            (std::vector<ToolEntry>{{"Agent", "worker, researcher", "Agent(worker, researcher)"},
                                    {"Read", {}, "Read"},
                                    {"Bash", "git status", "Bash(git status)"}}));
  EXPECT_EQ(split_tool_list("Bash(git:*"),
            (std::vector<ToolEntry>{{"Bash", "git:*", "Bash(git:*"}}))
      << "an unclosed \"(\" runs to the end, and the entry says so as written";
  EXPECT_TRUE(split_tool_list(" , ,\t").empty());
  EXPECT_EQ(split_tool_list("Task()"), (std::vector<ToolEntry>{{"Task", "", "Task()"}}));
}

}  // namespace
}  // namespace nib::extensions
