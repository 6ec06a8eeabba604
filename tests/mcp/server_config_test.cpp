#include "mcp/server_config.hpp"

#include <gtest/gtest.h>

#include <map>

namespace nib::mcp {
namespace {

VariableLookup lookup_in(std::map<std::string, std::string> variables) {
  return [variables](const std::string& name) -> std::optional<std::string> {
    const auto found = variables.find(name);
    if (found == variables.end()) return std::nullopt;
    return found->second;
  };
}

TEST(ServerConfig, ReadsClaudeCodesStdioAndHttpEntries) {
  const auto servers = parse_servers(nlohmann::json::parse(R"({
      "fs": {"command": "npx", "args": ["-y", "pkg", "/tmp"], "env": {"K": "v"}},
      "api": {"type": "http", "url": "https://x/mcp", "headers": {"Authorization": "Bearer t"},
              "callTimeoutMs": 5000}})"),
                                     ".mcp.json", true);
  ASSERT_TRUE(servers.ok()) << servers.error();
  ASSERT_EQ(servers.value().size(), 2u);
  const ServerConfig& api = servers.value()[0];
  EXPECT_EQ(api.name, "api");
  EXPECT_EQ(api.kind, ServerConfig::Kind::kHttp);
  EXPECT_EQ(api.headers, (Pairs{{"Authorization", "Bearer t"}}));
  EXPECT_EQ(api.call_timeout, std::chrono::milliseconds(5000));
  const ServerConfig& fs = servers.value()[1];
  EXPECT_EQ(fs.kind, ServerConfig::Kind::kStdio);
  EXPECT_EQ(fs.command, "npx");
  EXPECT_EQ(fs.args, (std::vector<std::string>{"-y", "pkg", "/tmp"}));
  EXPECT_TRUE(fs.from_project);
  EXPECT_EQ(fs.file, ".mcp.json");
  EXPECT_EQ(fs.fingerprint.size(), 16u);
}

TEST(ServerConfig, AFingerprintChangesWithTheCommand) {
  const auto one = parse_servers(nlohmann::json::parse(R"({"a": {"command": "x"}})"), "f", false);
  const auto two = parse_servers(nlohmann::json::parse(R"({"a": {"command": "y"}})"), "f", false);
  EXPECT_NE(one.value()[0].fingerprint, two.value()[0].fingerprint);
}

TEST(ServerConfig, ABadEntryNamesTheFileTheServerAndTheProblem) {
  EXPECT_EQ(
      parse_servers(nlohmann::json::parse(R"({"a": {"args": []}})"), "/p/.mcp.json", true).error(),
      "/p/.mcp.json: mcpServers.a: needs a \"command\" (a stdio server) or a \"url\" (an "
      "http server)");
  EXPECT_NE(
      parse_servers(nlohmann::json::parse(R"({"a": {"type": "sse", "url": "u"}})"), "f", false)
          .error()
          .find("not supported"),
      std::string::npos);
  EXPECT_NE(
      parse_servers(nlohmann::json::parse(R"({"a": {"command": "x", "args": [1]}})"), "f", false)
          .error()
          .find("\"args\" must be an array of strings"),
      std::string::npos);
  EXPECT_FALSE(parse_servers(nlohmann::json::array(), "f", false).ok());
}

TEST(ServerConfig, ExpandsVariablesAndDefaults) {
  const auto lookup = lookup_in({{"TOKEN", "s3cret"}, {"EMPTY", ""}});
  EXPECT_EQ(expand_variables("Bearer ${TOKEN}", lookup).value(), "Bearer s3cret");
  EXPECT_EQ(expand_variables("${HOST:-localhost}:${PORT:-80}", lookup).value(), "localhost:80");
  EXPECT_EQ(expand_variables("${EMPTY:-fallback}", lookup).value(), "fallback");
  EXPECT_EQ(expand_variables("no ${ closing", lookup).value(), "no ${ closing");
  EXPECT_EQ(expand_variables("${MISSING}", lookup).error(),
            "the environment variable MISSING is not set (write ${MISSING:-default} for a "
            "default)");
}

TEST(ServerConfig, ExpandsEveryStringFieldOfAConfig) {
  auto servers = parse_servers(nlohmann::json::parse(R"({
      "a": {"command": "${BIN}/srv", "args": ["--root", "${ROOT}"], "env": {"K": "${TOKEN}"}},
      "b": {"type": "http", "url": "${URL}", "headers": {"Authorization": "Bearer ${TOKEN}"}}})"),
                               "f", false);
  const auto lookup = lookup_in({{"BIN", "/opt"}, {"ROOT", "/r"}, {"TOKEN", "t"}, {"URL", "u"}});
  const ServerConfig a = expand_config(servers.value()[0], lookup).value();
  EXPECT_EQ(a.command, "/opt/srv");
  EXPECT_EQ(a.args[1], "/r");
  EXPECT_EQ(a.env[0].second, "t");
  const ServerConfig b = expand_config(servers.value()[1], lookup).value();
  EXPECT_EQ(b.url, "u");
  EXPECT_EQ(b.headers[0].second, "Bearer t");
  EXPECT_FALSE(expand_config(servers.value()[0], lookup_in({})).ok());
}

TEST(ServerConfig, WritesAnEntryBackAsItReadsIt) {
  const auto servers = parse_servers(
      nlohmann::json::parse(R"({"a": {"command": "x", "args": ["1"], "env": {"K": "v"}}})"), "f",
      false);
  const nlohmann::json written = to_json(servers.value()[0]);
  EXPECT_EQ(written,
            nlohmann::json::parse(R"({"command": "x", "args": ["1"], "env": {"K": "v"}})"));
  EXPECT_EQ(parse_servers({{"a", written}}, "f", false).value()[0].command, "x");
}

}  // namespace
}  // namespace nib::mcp
