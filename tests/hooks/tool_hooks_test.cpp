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

  core::GateDecision decide(const core::Gate& gate, const std::string& tool, const Json& args) {
    return gate(core::GateRequest{"call-1", tool, &args, {}}, {});
  }

  // The inner gate: records what it was asked.
  core::Gate recording_gate() {
    return [this](const core::GateRequest& request, std::stop_token) {
      inner_asked_.push_back(request.hook_allows         ? "allowed: " + request.args->dump()
                             : request.hook_asks.empty() ? request.args->dump()
                                                         : "asks: " + request.hook_asks);
      return core::GateDecision{};
    };
  }

  std::vector<std::string> inner_asked_;
};

TEST_F(ToolHooksTest, ADenyByJsonBlocksNamingTheHook) {
  const std::string command = script(R"({"hookSpecificOutput": {"hookEventName": "PreToolUse",
      "permissionDecision": "deny", "permissionDecisionReason": "rm is not allowed"}})");
  const auto gate = with_pre_tool_use_hooks(hooks("PreToolUse", "Bash", command), recording_gate());
  const auto decision = decide(gate, "bash", {{"command", "rm -rf build"}});
  EXPECT_TRUE(decision.block);
  EXPECT_EQ(decision.reason, "rm is not allowed");
  EXPECT_EQ(decision.source, "hook " + command);
  EXPECT_TRUE(inner_asked_.empty());
}

TEST_F(ToolHooksTest, ExitTwoBlocksWithStderr) {
  const auto gate = with_pre_tool_use_hooks(
      hooks("PreToolUse", "", "echo 'use rg, not grep' >&2; exit 2"), recording_gate());
  const auto decision = decide(gate, "bash", {{"command", "grep x"}});
  EXPECT_TRUE(decision.block);
  EXPECT_EQ(decision.reason, "use rg, not grep");
}

TEST_F(ToolHooksTest, ExitOneGarbageAndAMissingProgramBlockAsFailures) {
  for (const std::string& command :
       {std::string("exit 1"), script("{\"permission"), std::string("/no/such/validator")}) {
    const auto gate = with_pre_tool_use_hooks(hooks("PreToolUse", "*", command), recording_gate());
    const auto decision = decide(gate, "bash", {{"command", "ls"}});
    EXPECT_TRUE(decision.block) << command;
    EXPECT_EQ(decision.reason.rfind("the hook failed (", 0), 0u) << decision.reason;
  }
  EXPECT_TRUE(inner_asked_.empty());
}

TEST_F(ToolHooksTest, AFailingHookThatAllowsOnFailureLetsTheInnerGateDecide) {
  const Json config_json = Json::parse(R"({"PreToolUse": [{"hooks": [
      {"type": "command", "command": "exit 1", "onFailure": "allow"}]}]})");
  auto config = parse_hook_config({HookSource{"s.json", &config_json}});
  ASSERT_TRUE(config.ok());
  const auto gate = with_pre_tool_use_hooks(
      std::make_shared<HookSet>(std::move(config.value()), HookSession{}, settings()),
      recording_gate());
  EXPECT_FALSE(decide(gate, "bash", {{"command", "ls"}}).block);
  EXPECT_EQ(inner_asked_, std::vector<std::string>{R"({"command":"ls"})"});
}

TEST_F(ToolHooksTest, AllowTellsTheInnerGateAndAskMakesItAsk) {
  // An allowing hook spares the user the question, but the inner gate still sees the call:
  // its deny rules still hold (as in Claude Code).
  const auto allow = with_pre_tool_use_hooks(
      hooks("PreToolUse", "Read",
            script(R"({"hookSpecificOutput": {"permissionDecision": "allow"}})")),
      recording_gate());
  EXPECT_FALSE(decide(allow, "read", {{"path", "a"}}).block);
  EXPECT_EQ(inner_asked_, std::vector<std::string>{R"(allowed: {"path":"a"})"});
  inner_asked_.clear();

  const std::string ask_command = script(
      R"({"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "prod"}})");
  const auto ask =
      with_pre_tool_use_hooks(hooks("PreToolUse", "Read", ask_command), recording_gate());
  EXPECT_FALSE(decide(ask, "read", {{"path", "a"}}).block);
  EXPECT_EQ(inner_asked_, std::vector<std::string>{"asks: prod"});

  const auto nobody = with_pre_tool_use_hooks(hooks("PreToolUse", "Read", ask_command), {});
  const auto refused = decide(nobody, "read", {{"path", "a"}});
  EXPECT_TRUE(refused.block);
  EXPECT_EQ(refused.reason,
            "Not run: the hook asks for the user's approval of this call (prod), and nobody can "
            "be asked here. Do without it, or tell the user what you would have run.");
}

TEST_F(ToolHooksTest, UpdatedInputIsWhatTheInnerGateJudgesAndTheCallRunsWith) {
  const auto gate = with_pre_tool_use_hooks(
      hooks("PreToolUse", "Bash",
            script(R"({"hookSpecificOutput": {"updatedInput": {"command": "ls -la"},
                       "additionalContext": "listing is cheap"}})")),
      recording_gate());
  const auto decision = decide(gate, "bash", {{"command", "ls"}});
  EXPECT_FALSE(decision.block);
  EXPECT_EQ(decision.updated_args, (Json{{"command", "ls -la"}}));
  EXPECT_EQ(decision.additional_context, "listing is cheap");
  EXPECT_EQ(inner_asked_, std::vector<std::string>{R"({"command":"ls -la"})"});
}

TEST_F(ToolHooksTest, FileToolsCarryClaudesFilePathBothWays) {
  const auto gate = with_pre_tool_use_hooks(
      hooks("PreToolUse", "Write",
            "jq -c '{hookSpecificOutput: {updatedInput: (.tool_input | .file_path += \".bak\")}}'"),
      {});
  const auto decision = decide(gate, "write", {{"path", "notes.txt"}, {"content", "x"}});
  ASSERT_TRUE(decision.updated_args) << decision.reason;
  EXPECT_EQ(*decision.updated_args,
            (Json{{"path", (dir_.path() / "notes.txt.bak").string()}, {"content", "x"}}));
}

TEST_F(ToolHooksTest, ASchemaInvalidUpdateBlocksTheCallInTheScheduler) {
  const auto registry = testing::registry_of({testing::make_echo_tool()});
  core::SchedulerOptions options;
  options.tools = registry.get();
  options.gate = with_pre_tool_use_hooks(
      hooks("PreToolUse", "echo",
            script(R"({"hookSpecificOutput": {"updatedInput": {"text": 42}}})")),
      {});
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
  const auto gate = with_pre_tool_use_hooks(
      hooks("PreToolUse", "Bash", "python3 " + fixture("bash_command_validator.py")),
      recording_gate());
  const auto blocked = decide(gate, "bash", {{"command", "grep -r TODO src"}});
  EXPECT_TRUE(blocked.block);
  EXPECT_EQ(blocked.reason, "- Use 'rg' (ripgrep) instead of 'grep' for better performance");
  EXPECT_FALSE(decide(gate, "bash", {{"command", "ls src"}}).block);
  EXPECT_EQ(inner_asked_.size(), 1u);
}

TEST_F(ToolHooksTest, ClaudeCodesJqLoggerExampleLogsEachCommand) {
  const auto gate =
      with_pre_tool_use_hooks(hooks("PreToolUse", "Bash", fixture("bash_command_logger.sh")), {});
  EXPECT_FALSE(decide(gate, "bash", {{"command", "make test"}}).block);
  EXPECT_FALSE(decide(gate, "bash", {{"command", "ls"}, {"description", "List the files"}}).block);
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
