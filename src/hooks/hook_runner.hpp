#pragma once
// Running one hook command: /bin/sh -c COMMAND in the working directory, its JSON input on
// stdin, CLAUDE_PROJECT_DIR and NIB_PROJECT_DIR set to the project's directory, stdout and
// stderr captured in bounded memory, killed with its whole process tree when its timeout
// expires or `stop` is requested (tools/command_runner.hpp does the work, so a hook's
// processes are recorded, reaped and die with nib like any command's). Every wait goes through
// the clock, so tests drive timeouts with a fake one. Thread-safe; the calling thread must live
// until run_hook returns.

#include <chrono>
#include <filesystem>
#include <stop_token>
#include <string>

#include "core/clock.hpp"
#include "hooks/hook_config.hpp"

namespace nib::hooks {

struct HookRunSettings {
  std::filesystem::path cwd;                      // where hooks run
  std::filesystem::path project_dir;              // $CLAUDE_PROJECT_DIR and $NIB_PROJECT_DIR
  std::vector<std::string> withheld_environment;  // names hooks do not get (provider keys)
  core::Clock* clock = &core::steady_clock();
};

// How one hook run ended, before its output is interpreted (hook_verdict.hpp).
struct HookRun {
  enum class End {
    kExited,      // exit_code is set
    kSignaled,    // it died of a signal nib did not send
    kTimedOut,    // nib killed it at its timeout
    kAborted,     // nib killed it when the run was aborted
    kNotStarted,  // it could not be started; `error` says why
  };
  End end = End::kNotStarted;
  int exit_code = 0;
  int signal = 0;
  std::string stdout_text;
  std::string stderr_text;
  bool stdout_complete = true;  // false: it printed more than nib keeps, and this is the end
  std::string error;
  std::chrono::milliseconds duration{0};
};

HookRun run_hook(const HookCommand& hook, const std::string& input, const HookRunSettings& settings,
                 std::stop_token stop);

// "exit 1", "killed by signal 9", "timed out after 60 s", "aborted", "could not be started
// (...)": how the run ended, for messages.
std::string describe_end(const HookRun& run, const HookCommand& hook);

}  // namespace nib::hooks
