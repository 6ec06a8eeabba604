// End-to-end: permission modes in print mode (the real binary against the mock model): what
// each mode runs, what it refuses, and what the model is told.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"
#include "support/web_server.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

class PermissionModesTest : public ::testing::Test {
 protected:
  NibResult run(std::vector<std::string> args) {
    return run_nib(args, dir_.path(),
                   {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock-model"}});
  }
  // The content the model received for its only tool call, in the request numbered `request`
  // (the first run's second by default).
  std::string tool_result(std::size_t request = 1) {
    const auto requests = server_.requests();
    for (const auto& message : requests.at(request).body["messages"]) {
      if (message["role"] == "tool") return message["content"].dump();
    }
    return "";
  }
  void write_call(const std::string& path) {
    server_.enqueue(
        MockReply::tool_calls({{"c1", "write", json{{"path", path}, {"content", "x\n"}}.dump()}}));
    server_.enqueue(MockReply::text("done"));
  }

  MockModelServer server_;
  TempDir dir_;
};

// web_fetch never reaches a loopback or private address by itself; a WebFetch(domain:...) allow
// rule naming the host opens it (the refusal says which rule).
TEST_F(PermissionModesTest, AWebFetchDomainRuleOpensALoopbackHost) {
  LocalWebServer web;
  web.page("/status", WebPage{200, "text/plain", "dev server up", {}});
  const auto fetch_call = [&] {
    server_.enqueue(
        MockReply::tool_calls({{"c1", "web_fetch", json{{"url", web.url("/status")}}.dump()}}));
    server_.enqueue(MockReply::text("done"));
  };
  fetch_call();
  ASSERT_EQ(run({"-p", "go"}).exit_code, 0);
  const std::string refused = tool_result();
  EXPECT_NE(refused.find("127.0.0.1 is a loopback address"), std::string::npos) << refused;
  EXPECT_NE(refused.find("WebFetch(domain:127.0.0.1)"), std::string::npos) << refused;
  EXPECT_EQ(web.requests("/status"), 0u);

  dir_.write(".nib/settings.json",
             R"json({"permissions": {"allow": ["WebFetch(domain:127.0.0.1)"]}})json");
  fetch_call();
  ASSERT_EQ(run({"-p", "go"}).exit_code, 0);
  EXPECT_NE(tool_result(3).find("dev server up"), std::string::npos) << tool_result(3);
  EXPECT_EQ(web.requests("/status"), 1u);
}

TEST_F(PermissionModesTest, AutoWritesInsideTheTreeWithoutAsking) {
  write_call("src/new.txt");
  const auto result = run({"-p", "go"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::exists(dir_.path() / "src" / "new.txt"));
}

TEST_F(PermissionModesTest, AutoRefusesAWriteOutsideTheTreeNamingTheRuleThatWouldAllowIt) {
  TempDir outside;
  write_call((outside.path() / "x.txt").string());
  const auto result = run({"-p", "go"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(outside.path() / "x.txt"));
  const std::string told = tool_result();
  EXPECT_NE(told.find("outside the working tree"), std::string::npos) << told;
  const std::string rule = "Edit(/" + outside.path().string() + "/**)";
  EXPECT_NE(told.find(rule), std::string::npos) << told;
  EXPECT_NE(told.find("Do not retry"), std::string::npos) << told;

  // The rule it names lets the same call through.
  dir_.write(".nib/settings.json", json{{"permissions", {{"allow", {rule}}}}}.dump());
  write_call((outside.path() / "x.txt").string());
  ASSERT_EQ(run({"-p", "go"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(outside.path() / "x.txt")) << tool_result(3);
}

TEST_F(PermissionModesTest, AutoRefusesAWriteToAProtectedFile) {
  write_call(".git/hooks/pre-commit");
  const auto result = run({"-p", "go"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(dir_.path() / ".git" / "hooks" / "pre-commit"));
  EXPECT_NE(tool_result().find("is protected"), std::string::npos) << tool_result();
}

TEST_F(PermissionModesTest, ReadOnlyRefusesWritesSayingTheMode) {
  write_call("a.txt");
  const auto result = run({"-p", "go", "--permission-mode", "read-only"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(dir_.path() / "a.txt"));
  EXPECT_NE(tool_result().find("read-only mode"), std::string::npos) << tool_result();
}

TEST_F(PermissionModesTest, AskModeRefusesBashInPrintModeSayingWhatWouldAllowIt) {
  server_.enqueue(MockReply::tool_calls({{"c1", "bash", R"({"command":"touch ran"})"}}));
  server_.enqueue(MockReply::text("done"));
  const auto result = run({"-p", "go", "--permission-mode", "ask"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(dir_.path() / "ran"));
  const std::string told = tool_result();
  EXPECT_NE(told.find("ask mode"), std::string::npos) << told;
  EXPECT_NE(told.find("--permission-mode auto"), std::string::npos) << told;
}

TEST_F(PermissionModesTest, TheSettingsDefaultModeAppliesAndTheFlagWins) {
  fs::create_directories(dir_.path() / ".nib");
  std::ofstream(dir_.path() / ".nib" / "settings.json")
      << R"({"permissions": {"defaultMode": "read-only"}})";
  write_call("a.txt");
  EXPECT_EQ(run({"-p", "go"}).exit_code, 0);
  EXPECT_FALSE(fs::exists(dir_.path() / "a.txt"));
  write_call("b.txt");
  EXPECT_EQ(run({"-p", "go", "--permission-mode", "yolo"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(dir_.path() / "b.txt"));
}

TEST_F(PermissionModesTest, StreamJsonsRunStartCarriesTheMode) {
  server_.enqueue(MockReply::text("hi"));
  const auto result =
      run({"-p", "go", "--output-format", "stream-json", "--permission-mode", "ask"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::istringstream lines(result.out);
  std::string first;
  std::getline(lines, first);
  const json start = json::parse(first);
  EXPECT_EQ(start["type"], "run_start");
  EXPECT_EQ(start["permission_mode"], "ask");
}

TEST_F(PermissionModesTest, AnUnknownModeIsAUsageError) {
  const auto flag = run({"-p", "go", "--permission-mode", "careful"});
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_NE(flag.err.find("--permission-mode"), std::string::npos) << flag.err;
  fs::create_directories(dir_.path() / ".claude");
  std::ofstream(dir_.path() / ".claude" / "settings.json")
      << R"({"permissions": {"defaultMode": "sometimes"}})";
  const auto setting = run({"-p", "go"});
  EXPECT_EQ(setting.exit_code, 2);
  EXPECT_NE(setting.err.find(".claude/settings.json"), std::string::npos) << setting.err;
}

}  // namespace
}  // namespace nib::testing
