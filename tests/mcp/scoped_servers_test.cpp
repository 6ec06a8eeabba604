// Files of MCP servers by scope, in ~/.claude.json's shape: the user's servers everywhere and
// one project's entry are read, everything else (other projects, Claude Code's history) passed
// over; a file that cannot be read is a failure naming it, for the app to report and go on.

#include "mcp/scoped_servers.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace nib::mcp {
namespace {

using nlohmann::json;

// A ~/.claude.json as Claude Code keeps it: its user scope, this project's local scope (with
// its answers and its history), another project's, and much else.
json scoped_claude_state() {
  return {{"numStartups", 42},
          {"oauthAccount", {{"emailAddress", "me@example.com"}}},
          {"mcpServers", {{"everywhere", {{"command", "npx"}, {"args", {"-y", "pkg"}}}}}},
          {"projects",
           {{"/work/p",
             {{"mcpServers", {{"here", {{"type", "http"}, {"url", "https://h/mcp"}}}}},
              {"enabledMcpjsonServers", {"repo"}},
              {"disabledMcpjsonServers", json::array()},
              {"enableAllProjectMcpServers", false},
              {"allowedTools", json::array()},
              {"history", {{{"display", "a long prompt"}, {"pastedContents", json::object()}}}}}},
            {"/work/other", {{"mcpServers", {{"elsewhere", {{"command", "other"}}}}}}}}}};
}

TEST(ScopedServers, ReadsTheUsersServersAndThisProjectsEntryOnly) {
  nib::testing::TempDir dir;
  const auto file = dir.write(".claude.json", scoped_claude_state().dump(2));
  const auto read = read_scoped_servers(file, "/work/p");
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read.value().everywhere, (json{{"mcpServers", scoped_claude_state()["mcpServers"]}}));
  EXPECT_EQ(read.value().this_project,
            (json{{"mcpServers", {{"here", {{"type", "http"}, {"url", "https://h/mcp"}}}}},
                  {"enabledMcpjsonServers", {"repo"}},
                  {"disabledMcpjsonServers", json::array()},
                  {"enableAllProjectMcpServers", false}}));
  // Another project's servers are not this one's.
  const auto elsewhere = read_scoped_servers(file, "/work/third");
  ASSERT_TRUE(elsewhere.ok()) << elsewhere.error();
  EXPECT_EQ(elsewhere.value().this_project, json::object());
  EXPECT_EQ(claude_state_file("/home/me"), "/home/me/.claude.json");
}

TEST(ScopedServers, AMissingFileOrOneWithoutServersHoldsNone) {
  nib::testing::TempDir dir;
  const auto missing = read_scoped_servers(dir.path() / ".claude.json", "/work/p");
  ASSERT_TRUE(missing.ok()) << missing.error();
  EXPECT_EQ(missing.value().everywhere, json::object());
  EXPECT_EQ(missing.value().this_project, json::object());
  const auto bare = dir.write("bare.json", R"({"numStartups": 1, "projects": []})");
  const auto none = read_scoped_servers(bare, "/work/p");
  ASSERT_TRUE(none.ok()) << none.error();
  EXPECT_EQ(none.value().everywhere, json::object());
  EXPECT_EQ(none.value().this_project, json::object());
}

TEST(ScopedServers, AFileThatCannotBeReadIsAFailureNamingIt) {
  nib::testing::TempDir dir;
  const auto broken = dir.write(".claude.json", R"({"mcpServers": {"a": )");
  const auto read = read_scoped_servers(broken, "/work/p");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().find(broken.string() + ": not valid JSON: parse error at line 1"), 0u)
      << read.error();
  const auto array = dir.write("array.json", "[1]");
  EXPECT_EQ(read_scoped_servers(array, "/work/p").error(),
            array.string() + ": must hold a JSON object");
  const auto deep = dir.write(
      "deep.json", R"({"mcpServers": )" + std::string(300, '[') + std::string(300, ']') + "}");
  EXPECT_EQ(read_scoped_servers(deep, "/work/p").error(),
            deep.string() + ": not valid JSON: nests deeper than 256 levels");
}

TEST(ScopedServers, AFileTooLargeIsNotRead) {
  nib::testing::TempDir dir;
  const auto huge = dir.write(".claude.json", "{}");
  std::filesystem::resize_file(huge, kMaxScopedServersFileBytes + 1);  // sparse: nothing written
  const auto read = read_scoped_servers(huge, "/work/p");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(), huge.string() + ": 65 MB, more than the 64 MB nib reads");
}

TEST(ScopedServers, EachScopesServersAreFoundOrMadeToBeChanged) {
  json document = {{"numStartups", 1}};
  auto user = scope_servers(document, std::nullopt);
  ASSERT_TRUE(user.ok()) << user.error();
  (*user.value())["a"] = {{"command", "a"}};
  auto local = scope_servers(document, std::filesystem::path("/work/p"));
  ASSERT_TRUE(local.ok()) << local.error();
  (*local.value())["b"] = {{"command", "b"}};
  EXPECT_EQ(document,
            (json{{"numStartups", 1},
                  {"mcpServers", {{"a", {{"command", "a"}}}}},
                  {"projects", {{"/work/p", {{"mcpServers", {{"b", {{"command", "b"}}}}}}}}}}));
  json odd = {{"projects", json::array()}};
  const auto refused = scope_servers(odd, std::filesystem::path("/work/p"));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(), "\"projects\" must be an object");
}

}  // namespace
}  // namespace nib::mcp
