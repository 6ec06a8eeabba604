#include "mcp/tool_name.hpp"

#include <gtest/gtest.h>

#include <regex>

namespace nib::mcp {
namespace {

TEST(ToolName, IsMcpServerToolWithForbiddenCharactersReplaced) {
  EXPECT_EQ(tool_name("everything", "echo"), "mcp__everything__echo");
  EXPECT_EQ(tool_name("my.server", "get file"), "mcp__my_server__get_file");
  EXPECT_EQ(tool_prefix("fs"), "mcp__fs__");
}

TEST(ToolName, ALongNameIsShortenedStablyAndDistinctly) {
  const std::string tool(80, 'a');
  const std::string name = tool_name("server", tool);
  EXPECT_EQ(name.size(), 64u);
  EXPECT_EQ(name, tool_name("server", tool));
  EXPECT_NE(name, tool_name("server", tool + "b"));
  EXPECT_TRUE(name.starts_with("mcp__server__aaa"));
  EXPECT_TRUE(std::regex_match(name, std::regex("^[a-zA-Z0-9_-]{1,64}$")));
  // Names that differ only where "_" replaced a character are told apart too.
  EXPECT_NE(tool_name("s", std::string(70, 'x') + "."), tool_name("s", std::string(70, 'x') + ","));
}

}  // namespace
}  // namespace nib::mcp
