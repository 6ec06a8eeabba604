#pragma once
// Running one shell command to completion: spawn it (subprocess.hpp), collect stdout and
// stderr into bounded captures, and wait in one poll() loop over both pipes, the process's
// exit (a pidfd), a wake-up eventfd fired by the stop token, and the timeout. Every time it
// reads and every wait goes through the request's clock (core/clock.hpp), so tests can drive
// the rules below with a fake clock.
//
// The call ends when the process has exited and both pipes are at end-of-file; a background
// child still holding a pipe ends it after kQuietAfterExit without output (output resets the
// wait) and at most kDrainCap after the exit, which the result's note then says. On timeout or stop
// the command's whole tree is killed (process_reaper.hpp) and the output collected so far is kept.
// A process of the tree that stays stopped for kStoppedProcessGrace is resumed (SIGCONT), since
// nothing else would resume it; the result's note says so.
//
// With a launcher the spawned process is the confining one (bubblewrap), the shell runs under
// it, and pid, the registry entry and the tree kill refer to that process and its tree.
//
// With a BackgroundHandoff in `movable_to` (background_handoff.hpp; the job table), the command
// may be moved into the background while its shell runs (Ctrl+B): its shell is then spawned on the
// handoff's spawn thread (it must outlive this call's thread), and the waiter, seeing the request
// beside its stop token, stops reading and hands the process, its pipes and its registry entry
// over to the table, which makes it a job. run_command then returns at once, kMovedToBackground,
// with the output read so far and what the pipes held when the waiter saw the request; what
// the command prints afterwards is the job's. A timeout and the
// stop token no longer apply to it. A request that comes once the shell has exited, or once nib
// is killing it, is not followed: the call ends as it would have.
//
// Every process of the command carries kCommandTagVariable in its environment, and the command
// is recorded in the per-user registry (command_registry.hpp) from its spawn until nothing of
// it runs, so a later nib can end it if this one dies.
// Thread-safe: independent calls may run on several threads. Without a spawn thread or
// movable_to, the thread that calls run_command must live until it returns (subprocess.hpp: the
// shell dies with that thread).

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <stop_token>
#include <string>
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
  core::Clock* clock = &core::steady_clock();  // the time every rule above is measured in
  // Confines the shell (command_launcher.hpp); none: it runs with nib's own rights. When the
  // launcher refuses, the command does not start and `error` gives its reason.
  const CommandLauncher* launcher = nullptr;
  LaunchMode launch_mode;
  // The background jobs this command may be moved into while it runs (see above); none: it runs
  // to its end here.
  BackgroundHandoff* movable_to = nullptr;
};

enum class CommandEnd {
  kExited,             // exit_code is set
  kSignaled,           // killed by `signal` (not by nib)
  kTimedOut,           // nib killed it when the timeout expired
  kAborted,            // nib killed it when stop was requested
  kNoStatus,           // it ended, but its exit status was collected elsewhere
  kNotStarted,         // `error` says why
  kMovedToBackground,  // it runs on as job `job_id` (see above)
};

struct CommandResult {
  CommandEnd end = CommandEnd::kNotStarted;
  int exit_code = 0;
  int signal = 0;
  bool core_dumped = false;
  pid_t pid = -1;
  std::string error;      // kNotStarted: the reason; otherwise extra notes, usually empty
  int resumed_stops = 0;  // times a stopped process of the command was resumed
  int job_id = 0;         // kMovedToBackground: the job it became, and that job's log
  std::filesystem::path job_log;
  OutputCapture stdout_capture;
  OutputCapture stderr_capture;
};

// Runs the command and returns once it has ended as described above.
CommandResult run_command(const CommandRequest& request, std::stop_token stop);

}  // namespace nib::process
