#pragma once
// One background job: a shell command that runs while the model goes on working (bash with
// run_in_background). Its shell is started like any command (command_start.hpp: tag, registry
// entry, spawned on the job table's spawn thread so that it does not die with the call), with
// stderr merged into stdout, and a watcher thread of its own reads its output into its JobLog
// and waits for its end. A job may also take over a command a call started and waited for
// (moved into the background with Ctrl+B, command_runner.hpp): its stdout and stderr then stay
// two pipes, read into the one log as their bytes arrive.
//
// When a job is finished: its shell has exited *and* nothing it started still runs (its process
// group is empty and no child of nib carries its tag: command_left_processes, checked every
// kJobSettleInterval once the shell has gone). A server started with `cmd &` or a daemon that
// called setsid keeps its job running after the shell exits; the status says so.
// Killing (job_kill, /jobs kill, nib's exit) ends the whole tree with the machinery of timeouts
// (kill_process_tree: freeze, SIGKILL the group, the descendants and the tagged processes).
//
// Thread-safe: every member may be called from any thread. The destructor kills a job still
// running and joins its watcher.

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "process/command_start.hpp"
#include "process/job_log.hpp"

namespace nib::process {

enum class JobEnd {
  kRunning,   // not finished (see above)
  kExited,    // finished; the shell exited with exit_code
  kSignaled,  // finished; the shell was killed by `signal`, not by nib
  kKilled,    // finished; nib killed it (killed_by says who asked)
  kNoStatus,  // finished; the shell's status was collected elsewhere
};

struct JobStatus {
  JobEnd end = JobEnd::kRunning;
  bool shell_exited = false;  // while kRunning: processes the shell started still run
  int exit_code = 0;          // the shell's, once it has exited normally
  int signal = 0;             // the signal that killed the shell
  std::string killed_by;      // kKilled: "job_kill", "the user (/jobs kill)", ...
  std::chrono::steady_clock::time_point started;
  std::chrono::steady_clock::time_point ended;  // once finished
};

// What a job is at one moment, for lists, footers and notices.
struct JobSnapshot {
  int id = 0;
  std::string command;
  pid_t pid = 0;
  std::filesystem::path log;
  JobStatus status;
  JobLogPosition output;                // everything it printed so far
  std::vector<std::string> last_lines;  // its last kJobNoticeLines lines
};

// What a read of new output returns.
struct JobRead {
  JobSnapshot job;
  JobLogSlice output;
  bool waited_in_vain = false;  // asked to wait, and nothing new came within the wait
};

class Job {
 public:
  // Called on the watcher thread once the job has finished: `record` with the job's lock held
  // (so that a reader who sees the job finished comes after it; it must not call into the
  // job), then `announce` without it.
  struct OnFinished {
    std::function<void(const JobSnapshot&)> record;
    std::function<void()> announce;
  };

  // Starts `request` (its spawn_thread and merge_stderr set by the caller) as job `id` whose
  // output goes to `log`; a failure says why it could not start.
  static util::Result<std::shared_ptr<Job>> start(int id, const CommandRequest& request,
                                                  LogFile log, OnFinished on_finished);
  // Takes over `command`, a running command whose waiter read its output so far, as job `id`
  // (`text` is its command line, `started_at` when it started): the output from now on goes to
  // `log`. Moves from `command` only when it succeeds; a failure says why.
  static util::Result<std::shared_ptr<Job>> adopt(int id, std::string text, StartedCommand& command,
                                                  std::chrono::steady_clock::time_point started_at,
                                                  LogFile log, OnFinished on_finished,
                                                  core::Clock& clock);
  ~Job();
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  int id() const { return id_; }
  JobSnapshot snapshot() const;
  bool finished() const;

  // The output since the last read_new, at most `max_bytes` and `max_lines` (its end when it
  // is more). With nothing new and the job running, waits up to `wait` for new output, the
  // shell's exit or the end, returning as soon as one comes or `stop` is requested.
  JobRead read_new(std::chrono::milliseconds wait, std::stop_token stop, std::size_t max_bytes,
                   std::size_t max_lines);

  // Kills the job's whole tree (no effect once finished) and waits up to `wait` for it to be
  // finished; returns the status then (still kRunning if something would not die in time).
  JobStatus kill(std::string killed_by, std::chrono::milliseconds wait);

  // Waits until the job has finished or `stop` is requested; for callers that must not poll.
  void wait_finished(std::stop_token stop) const;
  // Waits up to `wait` until, after the job's end, its registry entry is gone too; true then.
  bool wait_cleaned_up(std::chrono::milliseconds wait) const;

 private:
  class EndPolicy;  // job.cpp: what the watcher does with the job's output, exit and kill

  Job(int id, std::string text, StartedCommand command,
      std::chrono::steady_clock::time_point started_at, LogFile log, OnFinished on_finished,
      UniqueFd wake, core::Clock& clock);
  // Makes the job and starts its watcher.
  static std::shared_ptr<Job> launch(int id, std::string text, StartedCommand command,
                                     std::chrono::steady_clock::time_point started_at, LogFile log,
                                     OnFinished on_finished, UniqueFd wake, core::Clock& clock);
  void watch();
  JobSnapshot snapshot_locked() const;
  // Records how the job ended, once nothing of it runs.
  void settle_locked(int wait_status, bool status_lost);
  void wake_watcher() const;

  const int id_;
  const std::string command_;
  StartedCommand started_;
  const OnFinished on_finished_;
  const UniqueFd wake_fd_;  // an eventfd: kill requested
  core::Clock& clock_;      // what the watcher's waits are measured in

  mutable std::mutex mutex_;
  mutable std::condition_variable_any changed_;  // output, the shell's exit, the end
  JobLog log_;                                   // guarded by mutex_
  JobStatus status_;                             // guarded by mutex_
  std::uint64_t changes_ = 0;                    // counts changes; guarded by mutex_
  JobLogPosition read_to_;                       // the model's position; guarded by mutex_
  std::string kill_requested_by_;                // guarded by mutex_
  bool watcher_done_ = false;                    // guarded by mutex_

  std::thread watcher_;
};

}  // namespace nib::process
