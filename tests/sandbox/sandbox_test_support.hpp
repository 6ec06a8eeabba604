#pragma once
// For the sandbox's tests: a working tree that is *not* under a temp directory (the temp
// directories are writable inside the sandbox, so a tree there would have a writable parent),
// with a sibling "outside" directory to try escapes into and the private cache beside it;
// running one command through the real command runner with a launcher; and the fixture of the
// tests that run commands in a bubblewrap sandbox (skipped where bubblewrap cannot run).
// Not thread-safe: one fixture per test.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <stop_token>
#include <string>
#include <system_error>

#include "process/command_registry.hpp"
#include "process/command_runner.hpp"
#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "sandbox/command_sandbox.hpp"
#include "support/scoped_places.hpp"
#include "support/temp_dir.hpp"
#include "util/path_within.hpp"
#include "util/result.hpp"

namespace nib::testing {

// Where SandboxTree makes its directories: the build directory (the tests' working directory),
// unless that lies in a temp directory (a checkout under /tmp), then the home directory.
inline std::filesystem::path sandbox_tree_parent() {
  const std::filesystem::path here = std::filesystem::current_path();
  const char* tmpdir = std::getenv("TMPDIR");
  for (const std::filesystem::path& temp :
       {std::filesystem::path("/tmp"), std::filesystem::path("/var/tmp"),
        std::filesystem::path(tmpdir ? tmpdir : "/tmp")}) {
    if (util::is_within(temp, here)) {
      const char* home = std::getenv("HOME");
      return home != nullptr ? home : "/root";
    }
  }
  return here;
}

class SandboxTree {
 public:
  SandboxTree() {
    std::string pattern = (sandbox_tree_parent() / "nib-sandbox-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp " + pattern);
    root_ = std::filesystem::canonical(pattern);
    std::filesystem::create_directories(tree());
    std::filesystem::create_directories(outside());
  }
  ~SandboxTree() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  SandboxTree(const SandboxTree&) = delete;
  SandboxTree& operator=(const SandboxTree&) = delete;

  std::filesystem::path tree() const { return root_ / "tree"; }
  std::filesystem::path outside() const { return root_ / "outside"; }
  std::filesystem::path cache() const { return root_ / "cache"; }

  sandbox::SandboxOptions options(sandbox::SandboxSettings settings = {}) const {
    return {.tree = tree(),
            .cache_root = cache(),
            .settings = std::move(settings),
            .exec_helper = NIB_EXEC_HELPER};
  }

 private:
  std::filesystem::path root_;
};

// Runs `command` in `cwd` through `launcher` (none: unconfined), without logs.
inline process::CommandResult run_with(const process::CommandLauncher* launcher,
                                       const std::string& command, const std::filesystem::path& cwd,
                                       process::LaunchMode mode = {}, std::stop_token stop = {}) {
  const auto no_log = [] {
    return util::Result<process::LogFile>::failure("no logs in this test");
  };
  return process::run_command({.command = command,
                               .cwd = cwd,
                               .timeout = std::chrono::seconds(60),  // a hang guard only
                               .stdout_log = no_log,
                               .stderr_log = no_log,
                               .launcher = launcher,
                               .launch_mode = mode},
                              std::move(stop));
}

// Runs commands in tree_ through sandbox_, a bubblewrap sandbox; skips where bubblewrap cannot
// run. Ends every process the test left behind.
class SandboxedCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(process::become_subreaper());
    if (sandbox_->verdict().confinement != sandbox::Confinement::kBubblewrap) {
      GTEST_SKIP() << "bubblewrap cannot run here: " << sandbox_->verdict().line;
    }
  }
  void TearDown() override {
    process::kill_all_descendants();
    process::forget_all_commands();
  }

  process::CommandResult run(const std::string& command, process::LaunchMode mode = {}) {
    return run_with(sandbox_.get(), command, tree_.tree(), mode);
  }

  // The command's exit code, and its stderr on failure.
  static int exit_code(const process::CommandResult& result) {
    EXPECT_EQ(result.end, process::CommandEnd::kExited) << result.error;
    return result.exit_code;
  }

  TempDir runtime_;
  ScopedPlaces runtime_places_{&util::UserPlaces::runtime_dir, runtime_.path()};
  SandboxTree tree_;
  std::unique_ptr<sandbox::CommandSandbox> sandbox_ =
      std::make_unique<sandbox::CommandSandbox>(tree_.options());
};

}  // namespace nib::testing
