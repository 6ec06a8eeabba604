#include "extensions/tool_list.hpp"

#include <gtest/gtest.h>

namespace nib::extensions {
namespace {

TEST(ToolListTest, SplitsListsAtCommasAndBlanksOutsideParentheses) {
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
