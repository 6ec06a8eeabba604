#pragma once
// What the hooks tests share: a directory to run hooks in, the command registry of their own
// (as the command runner's tests have), and no process left behind. Not thread-safe.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "hooks/hook_config.hpp"
#include "hooks/hook_runner.hpp"
#include "support/temp_dir.hpp"
#include "tools/command_registry.hpp"
#include "tools/process_reaper.hpp"
#include "tools/process_test_util.hpp"

namespace nib::hooks {

class HookTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(tools::become_subreaper()); }
  void TearDown() override {
    tools::kill_all_descendants();
    tools::forget_all_commands();
  }

  HookRunSettings settings() const {
    return HookRunSettings{dir_.path(), dir_.path(), {}, &core::steady_clock()};
  }

  static HookCommand hook(std::string command) {
    HookCommand hook;
    hook.command = std::move(command);
    hook.origin = "settings.json: hooks.PreToolUse[0].hooks[0]";
    return hook;
  }

  static std::string fixture(const std::string& name) {
    return std::string(NIB_SOURCE_DIR) + "/tests/hooks/fixtures/" + name;
  }

  testing::TempDir dir_;
  testing::TempDir runtime_;
  testing::ScopedEnv runtime_env_{"XDG_RUNTIME_DIR", runtime_.path().string()};
};

}  // namespace nib::hooks
