#include "hooks/tool_hooks.hpp"

#include <gtest/gtest.h>

#include "core/tool_scheduler.hpp"
#include "hooks/hook_test_support.hpp"
#include "support/gated_tool.hpp"
#include "support/registry_of.hpp"

namespace nib::hooks {
namespace {

using Json = nlohmann::json;

class ToolHooksTest : public HookTest {
 protected:
  std::shared_ptr<const HookSet> hooks(const std::string& event, const std::string& matcher,
                                       const std::string& command) {
    const Json config_json = {
        {event,
         {{{"matcher", matcher}, {"hooks", {{{"type", "command"}, {"command", command}}}}}}}};
    auto config = parse_hook_config({HookSource{dir_.path() / "settings.json", &config_json}});
    EXPECT_TRUE(config.ok()) << config.error();
    return std::make_shared<HookSet>(std::move(config.value()),
                                     HookSession{"s", "", dir_.path(), "default"}, settings());
  }

  // Writes a hook script printing `output` and exiting with `status`; returns its command.
  std::string script(const std::string& output, int status = 0) {
    dir_.write("out.json", output);
    return "cat out.json; exit " + std::to_string(status);
  }

  // What the hooks decide of a call of `tool` with `args`, whose path (if any) the tool
  // resolved to the test's directory.
  core::PreToolVerdict decide(const core::PreToolCheck& check, const std::string& tool,
                              const Json& args) {
    core::CallAccess access;
    if (args.contains("path")) {
      const std::filesystem::path path = dir_.path() / args["path"].get<std::string>();
      access.paths.push_back({args["path"], path, path});
    }
    return check(core::GateRequest{"call-1", tool, &args, &access}, {});
  }
};

using PreToolKind = core::PreToolVerdict::Kind;

TEST_F(ToolHooksTest, ADenyByJsonBlocksNamingTheHook) {
  const std::string command = script(R"({"hookSpecificOutput": {"hookEventName": "PreToolUse",
      "permissionDecision": "deny", "permissionDecisionReason": "rm is not allowed"}})");
  const auto check = pre_tool_use_check(hooks("PreToolUse", "Bash", command));
  const auto decision = decide(check, "bash", {{"command", "rm -rf build"}});
  EXPECT_EQ(decision.kind, PreToolKind::kBlock);
  EXPECT_EQ(decision.reason, "rm is not allowed");
  EXPECT_EQ(decision.source, "hook " + command);
}

TEST_F(ToolHooksTest, ExitTwoBlocksWithStderr) {
  const auto check =
      pre_tool_use_check(hooks("PreToolUse", "", "echo 'use rg, not grep' >&2; exit 2"));
  const auto decision = decide(check, "bash", {{"command", "grep x"}});
  EXPECT_EQ(decision.kind, PreToolKind::kBlock);
  EXPECT_EQ(decision.reason, "use rg, not grep");
}

TEST_F(ToolHooksTest, ExitOneGarbageAndAMissingProgramBlockAsFailures) {
  for (const std::string& command :
       {std::string("exit 1"), script("{\"permission"), std::string("/no/such/validator")}) {
    const auto check = pre_tool_use_check(hooks("PreToolUse", "*", command));
    const auto decision = decide(check, "bash", {{"command", "ls"}});
    EXPECT_EQ(decision.kind, PreToolKind::kBlock) << command;
    EXPECT_EQ(decision.reason.rfind("the hook failed (", 0), 0u) << decision.reason;
  }
}

TEST_F(ToolHooksTest, AFailingHookThatAllowsOnFailureLetsTheInnerGateDecide) {
  const Json config_json = Json::parse(R"({"PreToolUse": [{"hooks": [
      {"type": "command", "command": "exit 1", "onFailure": "allow"}]}]})");
  auto config = parse_hook_config({HookSource{"s.json", &config_json}});
  ASSERT_TRUE(config.ok());
  const auto check = pre_tool_use_check(
      std::make_shared<HookSet>(std::move(config.value()), HookSession{}, settings()));
  EXPECT_EQ(decide(check, "bash", {{"command", "ls"}}).kind, PreToolKind::kNone);
}

TEST_F(ToolHooksTest, AllowAndAskReachTheGate) {
  // An allowing hook spares the user the question, but the gate still sees the call: its deny
  // rules still hold (as in Claude Code).
  const auto allow = pre_tool_use_check(hooks(
      "PreToolUse", "Read", script(R"({"hookSpecificOutput": {"permissionDecision": "allow"}})")));
  EXPECT_EQ(decide(allow, "read", {{"path", "a"}}).kind, PreToolKind::kAllow);

  const std::string ask_command = script(
      R"({"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "prod"}})");
  const auto asked =
      decide(pre_tool_use_check(hooks("PreToolUse", "Read", ask_command)), "read", {{"path", "a"}});
  EXPECT_EQ(asked.kind, PreToolKind::kAsk);
  EXPECT_EQ(asked.reason, "prod");
}

TEST_F(ToolHooksTest, UpdatedInputAndContextComeWithTheVerdict) {
  const auto check = pre_tool_use_check(hooks(
      "PreToolUse", "Bash", script(R"({"hookSpecificOutput": {"updatedInput": {"command": "ls -la"},
                       "additionalContext": "listing is cheap"}})")));
  const auto decision = decide(check, "bash", {{"command", "ls"}});
  EXPECT_EQ(decision.kind, PreToolKind::kNone);
  EXPECT_EQ(decision.updated_args, (Json{{"command", "ls -la"}}));
  EXPECT_EQ(decision.additional_context, "listing is cheap");
}

TEST_F(ToolHooksTest, FileToolsCarryClaudesFilePathBothWays) {
  const auto check = pre_tool_use_check(hooks(
      "PreToolUse", "Write",
      "jq -c '{hookSpecificOutput: {updatedInput: (.tool_input | .file_path += \".bak\")}}'"));
  const auto decision = decide(check, "write", {{"path", "notes.txt"}, {"content", "x"}});
  ASSERT_TRUE(decision.updated_args) << decision.reason;
  // The file_path the hook saw is the file the tool opens (its access), not the raw argument.
  EXPECT_EQ(*decision.updated_args,
            (Json{{"path", (dir_.path() / "notes.txt.bak").string()}, {"content", "x"}}));
}

TEST_F(ToolHooksTest, ASchemaInvalidUpdateBlocksTheCallInTheScheduler) {
  const auto registry = testing::registry_of({testing::make_echo_tool()});
  core::SchedulerOptions options;
  options.tools = registry.get();
  options.pre_tool = pre_tool_use_check(hooks(
      "PreToolUse", "echo", script(R"({"hookSpecificOutput": {"updatedInput": {"text": 42}}})")));
  core::ToolScheduler scheduler(options);
  const auto results =
      scheduler.execute_batch({core::ToolCall{"c", "echo", R"({"text":"hi"})"}}, {});
  ASSERT_EQ(results.results.size(), 1u);
  EXPECT_TRUE(results.results[0].is_error);
  EXPECT_NE(core::content_text(results.results[0].content)
                .find("replaced its arguments with ones the tool does not accept (/text: "
                      "expected \"string\", got integer)"),
            std::string::npos)
      << core::content_text(results.results[0].content);
}

TEST_F(ToolHooksTest, ClaudeCodesBashValidatorExampleBlocksWithItsAdvice) {
  const auto check = pre_tool_use_check(
      hooks("PreToolUse", "Bash", "python3 " + fixture("bash_command_validator.py")));
  const auto blocked = decide(check, "bash", {{"command", "grep -r TODO src"}});
  EXPECT_EQ(blocked.kind, PreToolKind::kBlock);
  EXPECT_EQ(blocked.reason, "- Use 'rg' (ripgrep) instead of 'grep' for better performance");
  EXPECT_EQ(decide(check, "bash", {{"command", "ls src"}}).kind, PreToolKind::kNone);
}

TEST_F(ToolHooksTest, ClaudeCodesJqLoggerExampleLogsEachCommand) {
  const auto check =
      pre_tool_use_check(hooks("PreToolUse", "Bash", fixture("bash_command_logger.sh")));
  EXPECT_EQ(decide(check, "bash", {{"command", "make test"}}).kind, PreToolKind::kNone);
  EXPECT_EQ(decide(check, "bash", {{"command", "ls"}, {"description", "List the files"}}).kind,
            PreToolKind::kNone);
  EXPECT_EQ(testing::file_contents(dir_.path() / "bash-command-log.txt"),
            "make test - No description\nls - List the files\n");
}

TEST_F(ToolHooksTest, PostToolUseSeesTheResponseAndItsBlockReachesTheModel) {
  const auto after = post_tool_use_hooks(hooks(
      "PostToolUse", "Edit|Write",
      "jq -c '{decision: \"block\", reason: (\"lint failed on \" + .tool_input.path + \": \" + "
      ".tool_response.content), hookSpecificOutput: {additionalContext: \"run make lint\"}}'"));
  const Json args = {{"path", "a.cpp"}};
  core::ToolResult result{"c", "write", core::text_content("wrote 3 lines"), false, std::nullopt};
  after(core::GateRequest{"c", "write", &args, {}}, result, {});
  EXPECT_EQ(core::content_text(result.content),
            "wrote 3 lines\n\n(The call ran, but hook jq -c '{decision: \"block\", reason: "
            "(\"lint failed on \" + .tool_input.path + \": \" + .tool_response.content), "
            "hookSpecificOutput: {additionalContext: \"run make lint\"}}' objects: lint failed on "
            "a.cpp: wrote 3 lines)\n\nrun make lint");
}

}  // namespace
}  // namespace nib::hooks
