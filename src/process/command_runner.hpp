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

#include "process/command_request.hpp"
#include "process/output_capture.hpp"

namespace nib::process {

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
