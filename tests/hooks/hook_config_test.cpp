#include "hooks/hook_config.hpp"

#include <gtest/gtest.h>

namespace nib::hooks {
namespace {

using Json = nlohmann::json;

util::Result<HookConfig> parse(const Json& hooks, const char* file = "/p/.claude/settings.json") {
  return parse_hook_config({HookSource{file, &hooks}});
}

TEST(HookConfigTest, ReadsClaudeCodesFormat) {
  const Json hooks = Json::parse(R"({
    "PreToolUse": [{"matcher": "Edit|Write",
                    "hooks": [{"type": "command", "command": "./check.sh", "timeout": 30,
                               "onFailure": "allow"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]})");
  const auto config = parse(hooks);
  ASSERT_TRUE(config.ok()) << config.error();
  const auto& pre = config.value().of(HookEvent::kPreToolUse);
  ASSERT_EQ(pre.size(), 1u);
  EXPECT_EQ(pre[0].matcher.pattern(), "Edit|Write");
  ASSERT_EQ(pre[0].hooks.size(), 1u);
  EXPECT_EQ(pre[0].hooks[0].command, "./check.sh");
  EXPECT_EQ(pre[0].hooks[0].timeout, std::chrono::seconds(30));
  EXPECT_TRUE(pre[0].hooks[0].allow_on_failure);
  EXPECT_EQ(pre[0].hooks[0].origin, "/p/.claude/settings.json: hooks.PreToolUse[0].hooks[0]");
  const auto& stop = config.value().of(HookEvent::kStop);
  ASSERT_EQ(stop.size(), 1u);
  EXPECT_EQ(stop[0].hooks[0].timeout, std::chrono::seconds(60)) << "Claude Code's default";
  EXPECT_FALSE(stop[0].hooks[0].allow_on_failure) << "hooks fail closed by default";
}

TEST(HookConfigTest, EverySourceAddsItsHooks) {
  const Json user = Json::parse(R"({"Stop": [{"hooks": [{"type": "command", "command": "a"}]}]})");
  const Json project =
      Json::parse(R"({"Stop": [{"hooks": [{"type": "command", "command": "b"}]}]})");
  const auto config =
      parse_hook_config({{"user.json", &user}, {"x.json", nullptr}, {"project.json", &project}});
  ASSERT_TRUE(config.ok());
  ASSERT_EQ(config.value().of(HookEvent::kStop).size(), 2u);
  EXPECT_EQ(config.value().of(HookEvent::kStop)[1].hooks[0].command, "b");
}

TEST(HookConfigTest, ErrorsNameTheFileAndTheEntry) {
  const auto expect_error = [](const char* hooks, const std::string& expected) {
    const auto config = parse(Json::parse(hooks), "/p/.nib/settings.json");
    ASSERT_FALSE(config.ok()) << hooks;
    EXPECT_EQ(config.error(), "/p/.nib/settings.json: " + expected);
  };
  expect_error(R"([])", "hooks: must be an object of events");
  expect_error(R"({"PreToolUse": {}})", "hooks.PreToolUse: must be an array of {matcher, hooks}");
  expect_error(R"({"PreToolUse": [{"matcher": 3, "hooks": []}]})",
               "hooks.PreToolUse[0].matcher: must be a string");
  expect_error(R"({"PreToolUse": [{"matcher": "(", "hooks": []}]})",
               "hooks.PreToolUse[0].matcher: not a valid regular expression (missing ): ()");
  expect_error(R"({"Stop": [{}]})", "hooks.Stop[0].hooks: must be an array of {type, command}");
  expect_error(R"({"Stop": [{"hooks": [{"type": "command"}]}]})",
               "hooks.Stop[0].hooks[0].command: must be a command to run");
  expect_error(R"({"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 0}]}]})",
               "hooks.Stop[0].hooks[0].timeout: must be a positive number of seconds");
  expect_error(
      R"({"Stop": [{"hooks": [{"type": "command", "command": "x", "onFailure": "ignore"}]}]})",
      "hooks.Stop[0].hooks[0].onFailure: must be \"block\" (the default) or \"allow\"");
}

TEST(HookConfigTest, EventsNibDoesNotHaveAreSkippedWithAWarning) {
  const auto config = parse(Json::parse(
      R"({"Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]})"));
  ASSERT_TRUE(config.ok());
  EXPECT_TRUE(config.value().empty());
  EXPECT_EQ(config.value().warnings,
            std::vector<std::string>{"/p/.claude/settings.json: hooks.Notification: nib has no "
                                     "such hook event; these hooks never run"});
}

TEST(HookConfigTest, AHookTypeNibCannotRunIsKeptSoItFailsClosed) {
  const auto config = parse(Json::parse(
      R"({"PreToolUse": [{"hooks": [{"type": "prompt", "prompt": "Is this safe?"}]}]})"));
  ASSERT_TRUE(config.ok()) << config.error();
  const HookCommand& hook = config.value().of(HookEvent::kPreToolUse)[0].hooks[0];
  EXPECT_EQ(hook.unsupported, "it is a \"prompt\" hook, and nib runs only \"command\" hooks");
}

TEST(HookConfigTest, EventNamesRoundTripAndOnlySomeCanBlock) {
  for (std::size_t i = 0; i < kHookEventCount; ++i) {
    const auto event = static_cast<HookEvent>(i);
    EXPECT_EQ(parse_hook_event(hook_event_name(event)), event);
  }
  EXPECT_TRUE(can_block(HookEvent::kPreToolUse));
  EXPECT_TRUE(can_block(HookEvent::kStop));
  EXPECT_FALSE(can_block(HookEvent::kSessionStart));
  EXPECT_FALSE(parse_hook_event("preToolUse"));
}

}  // namespace
}  // namespace nib::hooks
