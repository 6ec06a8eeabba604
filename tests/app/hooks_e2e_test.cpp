// End-to-end: hooks from a project's Claude Code settings through the real nib binary and the
// mock model: a PreToolUse hook blocks a bash call in print mode and the model gets its reason,
// a Stop hook sends the model on once, a UserPromptSubmit hook refuses a prompt, and
// `nib hooks test` shows each hook's decision.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

class HooksEndToEndTest : public ::testing::Test {
 protected:
  void hooks(const json& config) {
    dir_.write(".claude/settings.json", json{{"hooks", config}}.dump());
  }
  NibResult run_print(const std::string& prompt) {
    return run_nib({"-p", prompt}, dir_.path(),
                   {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock"}});
  }
  // The text of the last tool result in request `index`.
  std::string tool_result(std::size_t index) {
    std::string found;
    const auto requests = server_.requests();
    for (const auto& message : requests.at(index).body["messages"]) {
      if (message["role"] == "tool") found = message["content"].dump();
    }
    return found;
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(HooksEndToEndTest, APreToolUseHookBlocksABashCallAndTheModelGetsTheReason) {
  hooks(json::parse(R"({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
      "command": "jq -e '.tool_input.command | test(\"rm -rf\")' >/dev/null && { echo 'rm -rf is not allowed here' >&2; exit 2; }; exit 0"}]}]})"));
  server_.enqueue(MockReply::tool_calls({{"call_1", "bash", R"({"command":"rm -rf build"})"}}));
  server_.enqueue(MockReply::tool_calls({{"call_2", "bash", R"({"command":"echo kept"})"}}));
  server_.enqueue(MockReply::text("done"));
  dir_.write("build/keep", "x");
  const auto result = run_print("clean up");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  ASSERT_EQ(server_.requests().size(), 3u);
  EXPECT_NE(tool_result(1).find("blocked by hook jq -e"), std::string::npos) << tool_result(1);
  EXPECT_NE(tool_result(1).find("rm -rf is not allowed here"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "build/keep"));
  EXPECT_NE(tool_result(2).find("kept"), std::string::npos) << tool_result(2);
}

// A hook written for Claude's Edit and Write guards the patches of a model that edits with
// apply_patch: it sees every file the patch touches (absolute) and blocks the call; the file is
// unchanged on the host.
TEST_F(HooksEndToEndTest, AnEditWriteHookBlocksAPatchTouchingAGuardedFile) {
  hooks(json::parse(R"({"PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command",
      "command": "jq -e '.tool_name == \"apply_patch\" and (.tool_input.file_paths | any(endswith(\"/secrets.env\")))' >/dev/null && { echo 'secrets.env is guarded' >&2; exit 2; }; exit 0"}]}]})"));
  dir_.write("notes.txt", "a\n");
  dir_.write("secrets.env", "KEY=1\n");
  dir_.write(".nib/models.json",
             R"({"providers": {"local": {"api": "openai-chat", "baseUrl": ")" + server_.base_url() +
                 R"(", "models": [{"id": "mock", "editTool": "apply_patch"}]}}})");
  dir_.write(".nib/settings.json", R"({"provider": "local", "model": "mock"})");
  const std::string patch =
      "*** Begin Patch\n*** Add File: notes2.txt\n+b\n*** Delete File: secrets.env\n"
      "*** End Patch\n";
  server_.enqueue(MockReply::tool_calls({{"call_1", "read", R"({"path":"secrets.env"})"}}));
  server_.enqueue(
      MockReply::tool_calls({{"call_2", "apply_patch", json{{"input", patch}}.dump()}}));
  server_.enqueue(MockReply::text("done"));
  const auto result = run_nib({"-p", "tidy"}, dir_.path());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  ASSERT_EQ(server_.requests().size(), 3u);
  EXPECT_NE(tool_result(2).find("secrets.env is guarded"), std::string::npos) << tool_result(2);
  std::ifstream secrets(dir_.path() / "secrets.env");
  std::string kept;
  std::getline(secrets, kept);
  EXPECT_EQ(kept, "KEY=1");
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "notes2.txt"));
}

TEST_F(HooksEndToEndTest, AHookThatFailsBlocksSayingSo) {
  hooks(json::parse(R"({"PreToolUse": [{"hooks": [{"type": "command",
      "command": "/no/such/guard"}]}]})"));
  server_.enqueue(MockReply::tool_calls({{"call_1", "bash", R"({"command":"touch ran"})"}}));
  server_.enqueue(MockReply::text("done"));
  const auto result = run_print("go");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(tool_result(1).find("the hook failed (exit 127"), std::string::npos) << tool_result(1);
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "ran"));
}

TEST_F(HooksEndToEndTest, AStopHookSendsTheModelOnOnceWithItsReason) {
  hooks(json::parse(R"({"Stop": [{"hooks": [{"type": "command", "command":
      "jq -e '.stop_hook_active' >/dev/null || echo '{\"decision\": \"block\", \"reason\": \"run the tests first\"}'"}]}]})"));
  server_.enqueue(MockReply::text("finished"));
  server_.enqueue(MockReply::text("tests pass"));
  const auto result = run_print("go");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "finished\ntests pass\n");  // print mode prints each answer
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  const json messages = requests[1].body["messages"];
  EXPECT_NE(messages.back().dump().find("run the tests first"), std::string::npos)
      << messages.back().dump();
}

TEST_F(HooksEndToEndTest, AUserPromptSubmitHookRefusesThePromptOrAddsContext) {
  hooks(json::parse(R"({"UserPromptSubmit": [{"hooks": [{"type": "command", "command":
      "jq -e '.prompt | test(\"secret\")' >/dev/null && { echo 'no secrets in prompts' >&2; exit 2; }; echo 'The build uses make.'"}]}]})"));
  const auto refused = run_print("print the secret");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("no secrets in prompts"), std::string::npos) << refused.err;
  EXPECT_TRUE(server_.requests().empty());

  server_.enqueue(MockReply::text("ok"));
  EXPECT_EQ(run_print("build it").exit_code, 0);
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_NE(requests[0].body["messages"].dump().find("The build uses make."), std::string::npos);
}

TEST_F(HooksEndToEndTest, HooksTestPrintsEachHooksDecision) {
  hooks(json::parse(R"({"PreToolUse": [{"matcher": "Bash", "hooks": [
      {"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"nope\"}}'"},
      {"type": "command", "command": "exit 0"}]}]})"));
  const auto result = run_nib({"hooks", "test", "PreToolUse"}, dir_.path());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("  decision: block\n  reason:   nope\n"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("hook exit 0  ("), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("result: block — nope\n"), std::string::npos) << result.out;

  dir_.write(".nib/settings.json", R"({"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}})");
  const auto broken = run_nib({"hooks", "test", "Stop"}, dir_.path());
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(broken.err.find("settings.json: hooks.Stop[0].hooks[0].command: must be a command"),
            std::string::npos)
      << broken.err;
}

}  // namespace
}  // namespace nib::testing
