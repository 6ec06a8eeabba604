#pragma once
// What nib asks of a shell command: its text, where and how it runs, what it reads, how long it
// may take, where its output goes and whether it may move into the background. Both the runner
// that waits for a command (command_runner.hpp) and the steps every command goes through
// (command_start.hpp, also used by background jobs) take it.

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.hpp"
#include "process/command_launcher.hpp"
#include "process/output_capture.hpp"
#include "process/spawn_thread.hpp"
#include "process/subprocess.hpp"

namespace nib::process {

class BackgroundHandoff;  // background_handoff.hpp

struct CommandRequest {
  std::string command;  // run as <shell> -c <command>
  std::filesystem::path shell = "/bin/bash";
  // What the command reads on stdin (a hook's JSON input; held in memory, any size); none:
  // /dev/null.
  std::optional<std::string> stdin_text;
  std::filesystem::path cwd;
  std::optional<std::chrono::duration<double>> timeout;  // none: no timer
  EnvironmentOverrides environment;                      // added to nib's own environment
  std::vector<std::string> withheld_environment;         // names left out of nib's own environment
  std::string call_id;                                   // the tool call, for the registry's notice
  LogOpener stdout_log;  // where each stream's full output goes when it is long
  LogOpener stderr_log;
  bool use_pidfd = true;  // false waits by polling waitpid, as on kernels without pidfds
  // Where the shell is spawned: on this thread when null (the shell dies with it, see
  // subprocess.hpp), else on the given spawn thread, so that it may outlive this thread.
  SpawnThread* spawn_thread = nullptr;
  bool merge_stderr = false;  // stderr into stdout's pipe (a background job's one log)
  int job_id = 0;             // the background job this command is (0: none), for the registry
  // The time the runner's rules (command_runner.hpp) are measured in.
  core::Clock* clock = &core::steady_clock();
  // Confines the shell (command_launcher.hpp); none: it runs with nib's own rights. When the
  // launcher refuses, the command does not start and the result's `error` gives its reason.
  const CommandLauncher* launcher = nullptr;
  LaunchMode launch_mode;
  // The background jobs this command may be moved into while it runs (command_runner.hpp);
  // none: it runs to its end where it started.
  BackgroundHandoff* movable_to = nullptr;
  // Each piece of the command's output as it arrives (stdout and stderr alike), on the runner's
  // thread, for a front end that shows it live; empty: nobody watches.
  std::function<void(std::string_view bytes)> on_output;
};

}  // namespace nib::process
