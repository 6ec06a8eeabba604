#pragma once
// For the sandbox's tests: a working tree that is *not* under a temp directory (the temp
// directories are writable inside the sandbox, so a tree there would have a writable parent),
// with a sibling "outside" directory to try escapes into and the private cache beside it; and
// running one command through the real command runner with a launcher.
// Not thread-safe: one fixture per test.

#include <stdlib.h>

#include <filesystem>
#include <stop_token>
#include <string>
#include <system_error>

#include "sandbox/command_sandbox.hpp"
#include "tools/command_runner.hpp"
#include "util/result.hpp"

namespace nib::testing {

class SandboxTree {
 public:
  SandboxTree() {
    std::string pattern = (std::filesystem::current_path() / "sandbox-test-XXXXXX").string();
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
    return {.tree = tree(), .cache_root = cache(), .settings = std::move(settings)};
  }

 private:
  std::filesystem::path root_;
};

// Runs `command` in `cwd` through `launcher` (none: unconfined), without logs.
inline tools::CommandResult run_with(const tools::CommandLauncher* launcher,
                                     const std::string& command, const std::filesystem::path& cwd,
                                     tools::LaunchMode mode = {}, std::stop_token stop = {}) {
  const auto no_log = [] { return util::Result<tools::LogFile>::failure("no logs in this test"); };
  return tools::run_command({.command = command,
                             .cwd = cwd,
                             .timeout = std::chrono::seconds(60),  // a hang guard only
                             .stdout_log = no_log,
                             .stderr_log = no_log,
                             .launcher = launcher,
                             .launch_mode = mode},
                            std::move(stop));
}

}  // namespace nib::testing
