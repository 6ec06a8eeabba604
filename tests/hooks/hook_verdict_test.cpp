#include "hooks/hook_verdict.hpp"

#include <gtest/gtest.h>

namespace nib::hooks {
namespace {

using Kind = HookVerdict::Kind;

HookRun exited(int code, std::string out, std::string err = "") {
  HookRun run;
  run.end = HookRun::End::kExited;
  run.exit_code = code;
  run.stdout_text = std::move(out);
  run.stderr_text = std::move(err);
  return run;
}

HookVerdict verdict(HookEvent event, const HookRun& run) {
  HookCommand hook;
  hook.command = "./hook.sh";
  return interpret_hook_run(event, run, hook);
}

TEST(HookVerdictTest, ExitTwoBlocksWithStderrAsTheReason) {
  const auto v = verdict(HookEvent::kPreToolUse, exited(2, "ignored", "  no rm -rf here\n"));
  EXPECT_EQ(v.kind, Kind::kBlock);
  EXPECT_EQ(v.reason, "no rm -rf here");
}

TEST(HookVerdictTest, PermissionDecisionsOfPreToolUse) {
  const auto deny = verdict(HookEvent::kPreToolUse, exited(0, R"({"hookSpecificOutput": {
      "hookEventName": "PreToolUse", "permissionDecision": "deny",
      "permissionDecisionReason": "not on Fridays"}})"));
  EXPECT_EQ(deny.kind, Kind::kBlock);
  EXPECT_EQ(deny.reason, "not on Fridays");
  const auto ask = verdict(HookEvent::kPreToolUse, exited(0, R"({"hookSpecificOutput":
      {"permissionDecision": "ask", "permissionDecisionReason": "touches prod"}})"));
  EXPECT_EQ(ask.kind, Kind::kAsk);
  const auto allow = verdict(HookEvent::kPreToolUse, exited(0, R"({"hookSpecificOutput":
      {"permissionDecision": "allow", "updatedInput": {"command": "ls -a"},
       "additionalContext": "ls is fine"}})"));
  EXPECT_EQ(allow.kind, Kind::kAllow);
  EXPECT_EQ(allow.updated_input, (nlohmann::json{{"command", "ls -a"}}));
  EXPECT_EQ(allow.context, "ls is fine");
  const auto legacy =
      verdict(HookEvent::kPreToolUse, exited(0, R"({"decision": "block", "reason": "old style"})"));
  EXPECT_EQ(legacy.kind, Kind::kBlock);
  EXPECT_EQ(legacy.reason, "old style");
}

TEST(HookVerdictTest, CommonFieldsAreRead) {
  const auto v = verdict(HookEvent::kPostToolUse, exited(0, R"({"continue": false,
      "stopReason": "enough", "systemMessage": "careful", "suppressOutput": true})"));
  EXPECT_EQ(v.kind, Kind::kNone);
  EXPECT_TRUE(v.stop_run);
  EXPECT_EQ(v.stop_reason, "enough");
  EXPECT_EQ(v.system_message, "careful");
  EXPECT_TRUE(v.suppress_output);
}

TEST(HookVerdictTest, DecisionBlockForTheOtherEvents) {
  for (const HookEvent event : {HookEvent::kPostToolUse, HookEvent::kUserPromptSubmit,
                                HookEvent::kStop, HookEvent::kSubagentStop}) {
    const auto v = verdict(event, exited(0, R"({"decision": "block", "reason": "tests fail"})"));
    EXPECT_EQ(v.kind, Kind::kBlock) << hook_event_name(event);
    EXPECT_EQ(v.reason, "tests fail");
  }
}

TEST(HookVerdictTest, PlainStdoutIsContextOnlyWhereClaudeCodeMakesItSo) {
  EXPECT_EQ(verdict(HookEvent::kUserPromptSubmit, exited(0, "Today is Monday\n")).context,
            "Today is Monday");
  EXPECT_EQ(verdict(HookEvent::kSessionStart, exited(0, "branch: main")).context, "branch: main");
  const auto ignored = verdict(HookEvent::kPreToolUse, exited(0, "checked, all fine"));
  EXPECT_EQ(ignored.kind, Kind::kNone);
  EXPECT_EQ(ignored.context, "");
}

TEST(HookVerdictTest, OtherExitStatusesFailSayingHow) {
  const auto v = verdict(HookEvent::kPreToolUse, exited(1, "", "jq: not found"));
  EXPECT_EQ(v.kind, Kind::kFailed);
  EXPECT_EQ(v.reason, "exit 1: jq: not found");
  EXPECT_EQ(verdict(HookEvent::kPreToolUse, exited(127, "")).reason, "exit 127");
}

TEST(HookVerdictTest, OutputThatLooksLikeJsonButIsNotValidFails) {
  EXPECT_EQ(verdict(HookEvent::kPreToolUse, exited(0, "{not json")).reason,
            "printed output that is not a JSON object: {not json");
  EXPECT_EQ(verdict(HookEvent::kPreToolUse, exited(0, "[1, 2]")).kind, Kind::kFailed);
  EXPECT_EQ(verdict(HookEvent::kPreToolUse,
                    exited(0, R"({"hookSpecificOutput": {"permissionDecision": "maybe"}})"))
                .reason,
            "printed invalid output: hookSpecificOutput.permissionDecision must be \"allow\", "
            "\"deny\" or \"ask\"");
  EXPECT_EQ(verdict(HookEvent::kStop, exited(0, R"({"continue": "no"})")).reason,
            "printed invalid output: \"continue\" must be true or false");
  EXPECT_EQ(verdict(HookEvent::kPreToolUse,
                    exited(0, R"({"hookSpecificOutput": {"updatedInput": "ls"}})"))
                .reason,
            "printed invalid output: hookSpecificOutput.updatedInput must be an object");
}

TEST(HookVerdictTest, RunsThatDidNotExitFail) {
  HookCommand hook;
  hook.command = "./slow.sh";
  hook.timeout = std::chrono::milliseconds(1500);
  HookRun run;
  run.end = HookRun::End::kTimedOut;
  EXPECT_EQ(interpret_hook_run(HookEvent::kPreToolUse, run, hook).reason, "timed out after 1.5 s");
  run.end = HookRun::End::kNotStarted;
  run.error = "cannot run the program: No such file or directory";
  EXPECT_EQ(interpret_hook_run(HookEvent::kPreToolUse, run, hook).reason,
            "could not be started (cannot run the program: No such file or directory)");
}

TEST(HookVerdictTest, OutputPastWhatNibKeepsFails) {
  HookRun run = exited(0, "{}");
  run.stdout_complete = false;
  EXPECT_EQ(verdict(HookEvent::kPreToolUse, run).kind, Kind::kFailed);
}

}  // namespace
}  // namespace nib::hooks
