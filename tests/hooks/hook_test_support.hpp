#pragma once
// What the hooks tests share: a directory to run hooks in, the command registry of their own
// (as the command runner's tests have), and no process left behind. Not thread-safe.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "hooks/hook_config.hpp"
#include "hooks/hook_runner.hpp"
#include "process/command_registry.hpp"
#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "support/scoped_places.hpp"
#include "support/temp_dir.hpp"

namespace nib::hooks {

class HookTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(process::become_subreaper()); }
  void TearDown() override {
    process::kill_all_descendants();
    process::forget_all_commands();
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
  testing::ScopedPlaces runtime_places_{&util::UserPlaces::runtime_dir, runtime_.path()};
};

}  // namespace nib::hooks
