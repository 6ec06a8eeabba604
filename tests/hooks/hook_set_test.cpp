#include "hooks/hook_set.hpp"

#include <gtest/gtest.h>

#include "hooks/hook_test_support.hpp"

namespace nib::hooks {
namespace {

using Kind = HookVerdict::Kind;

class HookSetTest : public HookTest {
 protected:
  HookSet hook_set(const std::string& hooks_json) {
    const nlohmann::json hooks = nlohmann::json::parse(hooks_json);
    auto config = parse_hook_config({HookSource{dir_.path() / "settings.json", &hooks}});
    EXPECT_TRUE(config.ok()) << config.error();
    return HookSet(std::move(config.value()),
                   HookSession{"s-1", dir_.path() / "s-1.jsonl", dir_.path(), "default"},
                   settings());
  }
};

TEST_F(HookSetTest, TheInputCarriesTheSessionAndTheEventsFields) {
  const HookSet hooks = hook_set(R"({"UserPromptSubmit": [{"hooks": [
      {"type": "command", "command": "cat > input.json"}]}]})");
  hooks.run(HookEvent::kUserPromptSubmit, "", {{"prompt", "hello"}}, {});
  const auto input = nlohmann::json::parse(testing::file_contents(dir_.path() / "input.json"));
  EXPECT_EQ(input, (nlohmann::json{{"session_id", "s-1"},
                                   {"transcript_path", (dir_.path() / "s-1.jsonl").string()},
                                   {"cwd", dir_.path().string()},
                                   {"permission_mode", "default"},
                                   {"hook_event_name", "UserPromptSubmit"},
                                   {"prompt", "hello"}}));
}

TEST_F(HookSetTest, MatchingHooksRunAtOnceAndAnyDenyWins) {
  testing::make_fifo(dir_.path() / "to_b");
  testing::make_fifo(dir_.path() / "to_a");
  // Each hook waits for the other, so they finish only if they run at the same time.
  const HookSet hooks = hook_set(R"({"PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "timeout": 30, "command":
        "echo a > to_b; read x < to_a; echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"allow\"}}'"}]},
      {"matcher": "bash", "hooks": [{"type": "command", "timeout": 30, "command":
        "read x < to_b; echo b > to_a; echo 'not today' >&2; exit 2"}]}]})");
  const HookOutcome outcome = hooks.run(HookEvent::kPreToolUse, "bash", {}, {});
  ASSERT_EQ(outcome.reports.size(), 2u);
  EXPECT_EQ(outcome.reports[0].verdict.kind, Kind::kAllow);
  EXPECT_EQ(outcome.reports[1].verdict.kind, Kind::kBlock);
  EXPECT_EQ(outcome.decision, Kind::kBlock);
  EXPECT_EQ(outcome.reason, "not today");
  EXPECT_EQ(outcome.source, "hook read x < to_b; echo b > to_a; echo 'not today' >&2; exit 2");
}

TEST_F(HookSetTest, OnlyHooksWhoseMatcherMatchesRunAndAnIdenticalCommandRunsOnce) {
  const HookSet hooks = hook_set(R"({"PreToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "echo x >> ran"}]},
      {"matcher": "Write", "hooks": [{"type": "command", "command": "echo x >> ran"}]},
      {"matcher": "Read", "hooks": [{"type": "command", "command": "echo read >> ran"}]}]})");
  EXPECT_EQ(hooks.run(HookEvent::kPreToolUse, "write", {}, {}).reports.size(), 1u);
  EXPECT_EQ(testing::file_contents(dir_.path() / "ran"), "x\n");
  EXPECT_TRUE(hooks.run(HookEvent::kPreToolUse, "bash", {}, {}).reports.empty());
}

TEST_F(HookSetTest, AFailureBlocksSayingTheHookFailedUnlessItAllowsOnFailure) {
  const HookSet hooks = hook_set(R"({"PreToolUse": [{"hooks": [
      {"type": "command", "command": "echo broken >&2; exit 1"}]}],
      "PostToolUse": [{"hooks": [
      {"type": "command", "command": "exit 1", "onFailure": "allow"}]}]})");
  const HookOutcome failed = hooks.run(HookEvent::kPreToolUse, "bash", {}, {});
  EXPECT_EQ(failed.decision, Kind::kFailed);
  EXPECT_TRUE(failed.blocks());
  EXPECT_EQ(failed.reason,
            "the hook failed (exit 1: broken), so nib blocks what it guards; fix "
            "the hook, or give it \"onFailure\": \"allow\" in " +
                (dir_.path() / "settings.json").string() + ": hooks.PreToolUse[0].hooks[0]");
  const HookOutcome allowed = hooks.run(HookEvent::kPostToolUse, "bash", {}, {});
  EXPECT_EQ(allowed.decision, Kind::kNone);
  EXPECT_EQ(allowed.warnings, std::vector<std::string>{"hook exit 1 failed: exit 1"});
}

TEST_F(HookSetTest, EventsThatCannotBlockOnlyWarnOfFailures) {
  const HookSet hooks = hook_set(R"({"SessionStart": [{"matcher": "startup", "hooks": [
      {"type": "command", "command": "echo 'on main'; exit 0"},
      {"type": "command", "command": "exit 5"}]}]})");
  const HookOutcome outcome = hooks.run(HookEvent::kSessionStart, "startup", {}, {});
  EXPECT_EQ(outcome.decision, Kind::kNone);
  EXPECT_EQ(outcome.context, "on main");
  EXPECT_EQ(outcome.warnings, std::vector<std::string>{"hook exit 5 failed: exit 5"});
  EXPECT_TRUE(hooks.run(HookEvent::kSessionStart, "resume", {}, {}).reports.empty());
}

TEST(CombineVerdictsTest, BlockBeatsAskBeatsAllowAndContextsAddUp) {
  const auto report = [](Kind kind, std::string reason, std::string context) {
    HookReport r;
    r.hook.command = reason;
    r.verdict.kind = kind;
    r.verdict.reason = reason;
    r.verdict.context = std::move(context);
    return r;
  };
  const HookOutcome ask = combine_verdicts(
      HookEvent::kPreToolUse, {report(Kind::kAllow, "ok", "one"), report(Kind::kAsk, "hm", "two")});
  EXPECT_EQ(ask.decision, Kind::kAsk);
  EXPECT_EQ(ask.reason, "hm");
  EXPECT_EQ(ask.context, "one\ntwo");
  const HookOutcome block = combine_verdicts(
      HookEvent::kPreToolUse, {report(Kind::kAsk, "hm", ""), report(Kind::kBlock, "no", ""),
                               report(Kind::kAllow, "ok", "")});
  EXPECT_EQ(block.decision, Kind::kBlock);
  EXPECT_EQ(block.source, "hook no");
}

}  // namespace
}  // namespace nib::hooks
