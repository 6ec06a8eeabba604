#include "app/hook_setup.hpp"

#include <gtest/gtest.h>

#include "process/command_registry.hpp"
#include "process/process_reaper.hpp"
#include "support/scoped_places.hpp"
#include "support/temp_dir.hpp"

namespace nib::app {
namespace {

class HookSetupTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(process::become_subreaper()); }
  void TearDown() override {
    process::kill_all_descendants();
    process::forget_all_commands();
  }

  std::shared_ptr<hooks::HookSet> hook_set(const std::string& hooks_json) {
    Configuration configuration;
    configuration.sources.push_back(
        SettingsSource{dir_.path() / ".claude/settings.json", SettingsSource::Scope::kProject, true,
                       nlohmann::json{{"hooks", nlohmann::json::parse(hooks_json)}}});
    auto config = load_hook_config(configuration);
    EXPECT_TRUE(config.ok()) << config.error();
    return make_hook_set(std::move(config.value()), dir_.path(), {});
  }

  HookNotice recorder() {
    return [this](const std::string& text, bool) { notices_.push_back(text); };
  }

  testing::TempDir dir_;
  testing::TempDir runtime_;
  testing::ScopedPlaces runtime_places_{&util::UserPlaces::runtime_dir, runtime_.path()};
  std::vector<std::string> notices_;
};

TEST_F(HookSetupTest, StopHooksSendTheModelOnButNotForever) {
  auto hooks = hook_set(R"({"Stop": [{"hooks": [{"type": "command",
      "command": "echo '{\"decision\": \"block\", \"reason\": \"not yet\"}'"}]}]})");
  core::LoopOptions loop;
  agent::SubagentEnvironment subagents;
  install_stop_hooks(loop, subagents, hooks, recorder());
  const auto again = loop.before_done({}, 0, {});
  ASSERT_TRUE(again);
  EXPECT_EQ(core::content_text(again->content),
            "Stop hook echo '{\"decision\": \"block\", \"reason\": \"not yet\"}': not yet");
  EXPECT_FALSE(loop.before_done({}, hooks::kMaxStopContinuations, {}));
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("Stop hooks sent the model on 8 times in a row"), std::string::npos);
  EXPECT_TRUE(subagents.inherited.subagent_done) << "SubagentStop is wired too";
  EXPECT_FALSE(subagents.inherited.subagent_done({}, 0, {})) << "no SubagentStop hook configured";
}

TEST_F(HookSetupTest, SessionStartAndUserPromptSubmitContextGoWithThePrompt) {
  auto hooks = hook_set(R"({"SessionStart": [{"matcher": "startup", "hooks": [
      {"type": "command", "command": "echo 'on branch main'"}]}],
      "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo 'use make'"}]}]})");
  const CheckedPrompt first = check_prompt(*hooks, "build", "startup", {}, recorder());
  ASSERT_TRUE(first.message);
  EXPECT_EQ(core::content_text(first.message->content), "on branch main\nbuild\nuse make");
  const CheckedPrompt later = check_prompt(*hooks, "test", "", {}, recorder());
  EXPECT_EQ(core::content_text(later.message->content), "test\nuse make");
}

TEST_F(HookSetupTest, AUserPromptSubmitBlockRefusesThePrompt) {
  auto hooks = hook_set(R"({"UserPromptSubmit": [{"hooks": [
      {"type": "command", "command": "echo 'no secrets' >&2; exit 2"}]}]})");
  const CheckedPrompt checked = check_prompt(*hooks, "the secret", "", {}, recorder());
  EXPECT_FALSE(checked.message);
  EXPECT_EQ(checked.refusal, "hook echo 'no secrets' >&2; exit 2: no secrets");
}

TEST_F(HookSetupTest, BrokenHooksNameTheirFile) {
  Configuration configuration;
  configuration.sources.push_back(SettingsSource{"/p/.nib/settings.json",
                                                 SettingsSource::Scope::kProject, false,
                                                 nlohmann::json{{"hooks", {{"Stop", 1}}}}});
  const auto config = load_hook_config(configuration);
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error(),
            "/p/.nib/settings.json: hooks.Stop: must be an array of {matcher, hooks}");
}

}  // namespace
}  // namespace nib::app
