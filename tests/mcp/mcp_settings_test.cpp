// The "mcp" section of nib's settings files: the default timeouts and the servers allowed
// without approval, read only from the user's settings.

#include "mcp/mcp_settings.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace nib::mcp {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

TEST(McpSettings, DefaultsWithoutASection) {
  const json settings = {{"model", "m"}};
  const McpSettings read = read_mcp_settings(
      {{.file = "/u/settings.json", .document = std::make_shared<const json>(settings)},
       {.file = "/u/mcp.json"}});
  EXPECT_EQ(read.startup_timeout, kDefaultStartupTimeout);
  EXPECT_EQ(read.call_timeout, kDefaultCallTimeout);
  EXPECT_TRUE(read.allow.empty());
  EXPECT_TRUE(read.problems.empty());
}

TEST(McpSettings, ALaterFilesTimeoutWinsAndTheAllowListsAddUp) {
  const json user = {
      {"mcp", {{"startupTimeoutMs", 1000}, {"callTimeoutMs", 2000}, {"allow", {"a"}}}}};
  const json local = {{"mcp", {{"callTimeoutMs", 3000}, {"allow", {"b"}}}}};
  const McpSettings read = read_mcp_settings(
      {{.file = "/u/settings.json", .document = std::make_shared<const json>(user)},
       {.file = "/u/other.json", .document = std::make_shared<const json>(local)}});
  EXPECT_EQ(read.startup_timeout, milliseconds(1000));
  EXPECT_EQ(read.call_timeout, milliseconds(3000));
  EXPECT_EQ(read.allow, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(read.problems.empty());
}

TEST(McpSettings, ABadTimeoutIsReportedAndTheDefaultKept) {
  const json settings = {{"mcp", {{"startupTimeoutMs", 0}, {"callTimeoutMs", "soon"}}}};
  const McpSettings read = read_mcp_settings(
      {{.file = "/u/settings.json", .document = std::make_shared<const json>(settings)}});
  EXPECT_EQ(read.startup_timeout, kDefaultStartupTimeout);
  EXPECT_EQ(read.call_timeout, kDefaultCallTimeout);
  ASSERT_EQ(read.problems.size(), 2u);
  EXPECT_EQ(read.problems[0],
            "/u/settings.json: mcp.startupTimeoutMs must be a positive number of milliseconds; "
            "the default is used");
  EXPECT_NE(read.problems[1].find("mcp.callTimeoutMs"), std::string::npos);
}

TEST(McpSettings, AProjectCannotAllowItsOwnServers) {
  const json project = {{"mcp", {{"allow", {"all"}}, {"callTimeoutMs", 5000}}}};
  const McpSettings read = read_mcp_settings({{.file = "/p/.nib/settings.json",
                                               .from_project = true,
                                               .document = std::make_shared<const json>(project)}});
  EXPECT_TRUE(read.allow.empty());
  EXPECT_EQ(read.call_timeout, milliseconds(5000));  // its timeouts are fine
  ASSERT_EQ(read.problems.size(), 1u);
  EXPECT_NE(read.problems[0].find("/p/.nib/settings.json: mcp.allow is only read from the user's "
                                  "settings"),
            std::string::npos)
      << read.problems[0];
}

}  // namespace
}  // namespace nib::mcp
