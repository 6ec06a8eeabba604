// How the built-in tools present their calls and results to people (core::Tool::describe_call,
// describe_result): what the front ends show in tool rows and print mode's lines.

#include <gtest/gtest.h>

#include <algorithm>

#include "tools/builtin.hpp"

namespace nib::tools {
namespace {

using nlohmann::json;

core::ToolPtr tool_named(const std::string& name) {
  for (auto& tool : builtin_tools()) {
    if (tool->name() == name) return tool;
  }
  return nullptr;
}

TEST(ToolDescriptionTest, EachBuiltInToolSaysWhatItsCallActsOn) {
  EXPECT_EQ(tool_named("bash")->describe_call(json{{"command", "make -j4\nmake test"}}),
            "make -j4\nmake test");
  EXPECT_EQ(tool_named("read")->describe_call(json{{"path", "src/app.cpp"}}), "src/app.cpp");
  EXPECT_EQ(
      tool_named("read")->describe_call(json{{"path", "a.c"}, {"offset", 120}, {"limit", 61}}),
      "a.c:120-180");
  EXPECT_EQ(tool_named("grep")->describe_call(json{{"pattern", "TODO"}, {"path", "src"}}),
            "TODO in src");
  EXPECT_EQ(tool_named("find")->describe_call(json{{"pattern", "*.cpp"}}), "*.cpp");
  EXPECT_EQ(tool_named("ls")->describe_call(json{{"path", "src"}}), "src");
  EXPECT_EQ(tool_named("edit")->describe_call(json{{"path", "a.py"}}), "a.py");
  EXPECT_EQ(tool_named("write")->describe_call(json{{"path", "b.py"}, {"content", "x"}}), "b.py");
  EXPECT_EQ(tool_named("web_fetch")->describe_call(json{{"url", "https://docs.rs/x"}}),
            "https://docs.rs/x");
}

TEST(ToolDescriptionTest, ReadStandsInForItsPageWithTheCountOfLines) {
  const auto read = tool_named("read");
  const core::ToolResult page{"c1", "read", core::text_content("one\ntwo\nthree"), false, {}};
  EXPECT_EQ(read->describe_result(json::object(), page), "Read 3 lines");
  const core::ToolResult failed{"c1", "read", core::text_content("Error: no such file"), true, {}};
  EXPECT_EQ(read->describe_result(json::object(), failed), std::nullopt);
  const core::ToolResult output{"c1", "bash", core::text_content("ok"), false, {}};
  EXPECT_EQ(tool_named("bash")->describe_result(json::object(), output), std::nullopt);
}

}  // namespace
}  // namespace nib::tools

namespace nib::tools {
namespace {

// --disallowedTools: Claude Code's names or nib's leave tools out; a pattern is no name.
TEST(LeaveOutToolsTest, NamesLeaveToolsOutAndAPatternIsRefused) {
  auto kept = leave_out_tools(builtin_tools(), {"Bash", "web_fetch", "NoSuchTool"});
  ASSERT_TRUE(kept.ok()) << kept.error();
  std::vector<std::string> names;
  for (const core::ToolPtr& tool : kept.value()) names.push_back(tool->name());
  EXPECT_EQ(std::count(names.begin(), names.end(), "bash"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "web_fetch"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "read"), 1);
  // Leaving out Edit and Write leaves out apply_patch, which would change the same files; naming
  // edit in --tools keeps it.
  for (const std::vector<std::string>& edits :
       {std::vector<std::string>{"Edit", "Write"}, std::vector<std::string>{"write"}}) {
    const auto without_edits = leave_out_tools(builtin_tools(), edits);
    ASSERT_TRUE(without_edits.ok());
    for (const core::ToolPtr& tool : without_edits.value()) {
      EXPECT_NE(tool->name(), "apply_patch") << edits.front();
    }
  }
  const auto selected = select_tools(builtin_tools(), {"read", "edit"});
  ASSERT_TRUE(selected.ok()) << selected.error();
  std::vector<std::string> selected_names;
  for (const core::ToolPtr& tool : selected.value()) selected_names.push_back(tool->name());
  EXPECT_EQ(selected_names, (std::vector<std::string>{"read", "edit", "apply_patch"}));
  const auto pattern = leave_out_tools(builtin_tools(), {"Bash(rm:*)"});
  ASSERT_FALSE(pattern.ok());
  EXPECT_NE(pattern.error().find("deny rule"), std::string::npos) << pattern.error();
}

}  // namespace
}  // namespace nib::tools
