#pragma once
// The command runner's and bash's tests run every command twice: unconfined and inside the
// sandbox (src/sandbox), since output, exit status, timeouts, kill-on-abort, the subreaper and
// the registry must behave the same in both. What differs by design, and so what these helpers
// cover: inside the sandbox $$ and $! are pids of the command's own pid namespace, not the
// host's; and a shell killed by a signal is reported as exit code 128+N (bubblewrap's pid 1
// reports its child's death so).
// Not thread-safe (reads /proc; one fixture per test).

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "process/proc_table.hpp"
#include "sandbox/command_sandbox.hpp"
#include "support/host_pid.hpp"

namespace nib::testing {

// A sandbox for commands in `tree`, with its private cache in `cache`.
inline std::shared_ptr<const process::CommandLauncher> test_sandbox(
    const std::filesystem::path& tree, const std::filesystem::path& cache) {
  return std::make_shared<sandbox::CommandSandbox>(
      sandbox::SandboxOptions{.tree = tree, .cache_root = cache});
}

// The pids of a process in each pid namespace it is in, outermost first (NSpid in its status).
inline std::vector<pid_t> namespace_pids(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  std::vector<pid_t> pids;
  while (std::getline(status, line)) {
    if (!line.starts_with("NSpid:")) continue;
    std::istringstream fields(line.substr(6));
    for (pid_t value = 0; fields >> value;) pids.push_back(value);
  }
  return pids;
}

// The host pid of the living descendant of this process that a sandboxed command saw as
// `shown` ($$ or $!); `shown` itself when the command ran unconfined. -1 when none matches.
inline pid_t host_pid(pid_t shown, bool sandboxed) {
  if (!sandboxed) return shown;
  for (const pid_t pid : process::collect_descendants(process::scan_processes(), {::getpid()})) {
    const std::vector<pid_t> pids = namespace_pids(pid);
    if (pids.size() >= 2 && pids.back() == shown) return pid;
  }
  return -1;
}

// True when a living descendant of this process has `fragment` in its command line (its
// arguments joined by spaces): for "nothing of the command is left", in either mode.
inline bool descendant_running(std::string_view fragment) {
  const auto processes = process::scan_processes();
  for (const pid_t pid : process::collect_descendants(processes, {::getpid()})) {
    const auto info = process::read_process(pid);
    if (!info || process::has_exited(*info)) continue;
    if (command_line_of(pid).find(fragment) != std::string::npos) return true;
  }
  return false;
}

}  // namespace nib::testing
