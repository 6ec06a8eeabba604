// End-to-end: `nib mcp serve` driven by the official TypeScript SDK client
// (tests/mcp/fixtures/sdk_client.mjs): initialize, tools/list, read, edit and bash calls, a
// validation error, an unknown tool, and a call the gate refuses (--ask bash: nobody can be
// asked, so it is refused).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/mcp_packages.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

std::string result_text(const json& result) {
  std::string text;
  for (const json& block : result["content"]) text += block.value("text", "");
  return text;
}

json drive(const TempDir& dir, const std::vector<std::string>& serve_args) {
  const std::string sdk = mcp_package_file("@modelcontextprotocol/sdk", "package.json");
  std::vector<std::string> args = {
      std::string(NIB_SOURCE_DIR) + "/tests/mcp/fixtures/sdk_client.mjs",
      std::filesystem::path(sdk).parent_path().string(), NIB_BINARY, dir.path().string()};
  args.insert(args.end(), serve_args.begin(), serve_args.end());
  const NibResult result = NibProcess(args, dir.path(), {}, "/usr/bin/node").wait();
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return json::parse(result.out, nullptr, false);
}

TEST(McpServe, TheSdkClientListsAndCallsNibsTools) {
  NIB_SKIP_WITHOUT(mcp_package_file("@modelcontextprotocol/sdk", "package.json"));
  TempDir dir;
  dir.write("a.txt", "alpha\n");
  const json out = drive(dir, {});
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["server"]["name"], "nib");
  std::vector<std::string> names;
  for (const json& tool : out["tools"]) names.push_back(tool["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"read", "bash", "edit", "write", "apply_patch", "find",
                                             "ls", "grep"}));
  EXPECT_EQ(out["tools"][0]["readOnly"], true);
  EXPECT_NE(result_text(out["read"]).find("alpha"), std::string::npos) << out["read"].dump();
  EXPECT_EQ(out["edit"]["isError"], false) << out["edit"].dump();
  EXPECT_NE(result_text(out["bash"]).find("omega"), std::string::npos) << out["bash"].dump();
  EXPECT_EQ(out["invalid"]["isError"], true);
  EXPECT_NE(result_text(out["invalid"]).find("/path"), std::string::npos) << out["invalid"].dump();
  EXPECT_NE(out["unknown"].get<std::string>().find("Unknown tool: no_such_tool"), std::string::npos)
      << out["unknown"];
}

TEST(McpServe, ACallThatNeedsApprovalIsRefused) {
  NIB_SKIP_WITHOUT(mcp_package_file("@modelcontextprotocol/sdk", "package.json"));
  TempDir dir;
  dir.write("a.txt", "alpha\n");
  const json out = drive(dir, {"--ask", "bash"});
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["bash"]["isError"], true) << out["bash"].dump();
  EXPECT_EQ(out["read"]["isError"], false);
}

}  // namespace
}  // namespace nib::testing
