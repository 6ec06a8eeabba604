// Where MCP servers come from: the files the app lists, weakest first, read and merged here.

#include "mcp/server_catalog.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace nib::mcp {
namespace {

using nlohmann::json;

// {"mcpServers": {name: {"command": command}}}
json catalog_servers_document(const std::string& name, const std::string& command) {
  return {{"mcpServers", {{name, {{"command", command}}}}}};
}

const ServerConfig* catalog_server_named(const ServerCatalog& catalog, const std::string& name) {
  for (const ServerConfig& server : catalog.servers) {
    if (server.name == name) return &server;
  }
  return nullptr;
}

TEST(ServerCatalog, NamesNibsServerFiles) {
  EXPECT_EQ(user_servers_file("/home/u/.config/nib"), "/home/u/.config/nib/mcp.json");
  EXPECT_EQ(project_servers_file("/work/p"), "/work/p/.mcp.json");
}

TEST(ServerCatalog, ReadsFilesAndSettingsInOrderALaterEntryReplacingAnEarlierOne) {
  nib::testing::TempDir dir;
  const auto user_file =
      dir.write("config/mcp.json", catalog_servers_document("a", "user-a").dump());
  const auto project_file = dir.write(
      "p/.mcp.json",
      json{{"mcpServers", {{"a", {{"command", "project-a"}}}, {"b", {{"command", "project-b"}}}}}}
          .dump());
  const json user_settings = catalog_servers_document("c", "settings-c");
  const json project_settings = catalog_servers_document("b", "settings-b");
  const auto named = dir.write("named.json", catalog_servers_document("c", "named-c").dump());
  const auto found = find_servers({{.file = user_file},
                                   {.file = dir.path() / "config/settings.json",
                                    .document = std::make_shared<const json>(user_settings)},
                                   {.file = project_file, .from_project = true},
                                   {.file = dir.path() / "p/.nib/settings.json",
                                    .from_project = true,
                                    .document = std::make_shared<const json>(project_settings)},
                                   {.file = named, .named = true}});
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_TRUE(found.value().problems.empty());
  ASSERT_EQ(found.value().servers.size(), 3u);
  // In the order first configured, each as its strongest source wrote it.
  EXPECT_EQ(found.value().servers[0].name, "a");
  EXPECT_EQ(found.value().servers[1].name, "c");
  EXPECT_EQ(found.value().servers[2].name, "b");
  const ServerConfig* a = catalog_server_named(found.value(), "a");
  EXPECT_EQ(a->command, "project-a");
  EXPECT_EQ(a->file, project_file);
  EXPECT_TRUE(a->from_project);
  const ServerConfig* b = catalog_server_named(found.value(), "b");
  EXPECT_EQ(b->command, "settings-b");
  EXPECT_EQ(b->file, dir.path() / "p/.nib/settings.json");
  EXPECT_TRUE(b->from_project);
  const ServerConfig* c = catalog_server_named(found.value(), "c");
  EXPECT_EQ(c->command, "named-c");
  EXPECT_FALSE(c->from_project);
}

TEST(ServerCatalog, MissingFilesAndSettingsWithoutServersHoldNone) {
  nib::testing::TempDir dir;
  const json settings = {{"model", "m"}};
  const auto found = find_servers(
      {{.file = dir.path() / "mcp.json"},
       {.file = dir.path() / "settings.json", .document = std::make_shared<const json>(settings)},
       {.file = dir.path() / ".mcp.json", .from_project = true}});
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_TRUE(found.value().servers.empty());
  EXPECT_TRUE(found.value().problems.empty());
}

TEST(ServerCatalog, ABrokenFileFoundByItselfIsLeftOutNamingIt) {
  nib::testing::TempDir dir;
  const auto broken = dir.write(".mcp.json", "{\"mcpServers\": ");
  const json bad_entry = {{"mcpServers", {{"x", {{"args", json::array()}}}}}};
  const auto good = dir.write("mcp.json", catalog_servers_document("ok", "run-ok").dump());
  const auto found = find_servers(
      {{.file = broken, .from_project = true},
       {.file = dir.path() / "settings.json", .document = std::make_shared<const json>(bad_entry)},
       {.file = good}});
  ASSERT_TRUE(found.ok()) << found.error();
  ASSERT_EQ(found.value().servers.size(), 1u);
  EXPECT_EQ(found.value().servers[0].name, "ok");
  ASSERT_EQ(found.value().problems.size(), 2u);
  EXPECT_NE(found.value().problems[0].find(broken.string() + ": not valid JSON"), std::string::npos)
      << found.value().problems[0];
  EXPECT_NE(found.value().problems[0].find("left out"), std::string::npos);
  EXPECT_NE(found.value().problems[1].find((dir.path() / "settings.json").string()),
            std::string::npos)
      << found.value().problems[1];
}

// An SSE server of Claude Code's ~/.claude.json (nib does not run them) spoils none of the
// file's other servers.
TEST(ServerCatalog, AnEntryNibCannotRunIsLeftOutAloneAndNamed) {
  const auto document = std::make_shared<const json>(
      json{{"mcpServers",
            {{"linear", {{"type", "sse"}, {"url", "https://mcp.linear.app/sse"}}},
             {"fs", {{"command", "npx"}}}}}});
  const auto found = find_servers({{.file = "/home/u/.claude.json", .document = document}});
  ASSERT_TRUE(found.ok()) << found.error();
  ASSERT_EQ(found.value().servers.size(), 1u);
  EXPECT_EQ(found.value().servers[0].name, "fs");
  ASSERT_EQ(found.value().problems.size(), 1u);
  const std::string& problem = found.value().problems[0];
  EXPECT_EQ(problem.find("/home/u/.claude.json: mcpServers.linear: the SSE transport"), 0u)
      << problem;
  EXPECT_TRUE(problem.ends_with("; this server is left out")) << problem;
  // Named on the command line, the file is to be used as written.
  const auto named =
      find_servers({{.file = "/tmp/servers.json", .document = document, .named = true}});
  ASSERT_FALSE(named.ok());
  EXPECT_NE(named.error().find("mcpServers.linear"), std::string::npos) << named.error();
}

TEST(ServerCatalog, EachServerSaysWhereItCameFromAsTheSourceNamesIt) {
  const auto document = std::make_shared<const json>(catalog_servers_document("db", "run-db"));
  nib::testing::TempDir dir;
  const auto file = dir.write(".mcp.json", catalog_servers_document("repo", "run-repo").dump());
  const auto found = find_servers({{.file = "/home/u/.claude.json",
                                    .document = document,
                                    .origin = "~/.claude.json (local scope)"},
                                   {.file = file, .from_project = true}});
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(catalog_server_named(found.value(), "db")->origin, "~/.claude.json (local scope)");
  EXPECT_EQ(catalog_server_named(found.value(), "repo")->origin, file.string());
}

TEST(ServerCatalog, ABrokenFileNamedOnTheCommandLineIsAFailure) {
  nib::testing::TempDir dir;
  const auto broken = dir.write("extra.json", "[1, 2]");
  const auto found = find_servers({{.file = broken, .named = true}});
  ASSERT_FALSE(found.ok());
  EXPECT_NE(found.error().find(broken.string() + ": must hold a JSON object"), std::string::npos)
      << found.error();
}

}  // namespace
}  // namespace nib::mcp
