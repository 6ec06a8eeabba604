#pragma once
// The background jobs of one nib process (job.hpp), shared by the main agent and its
// subagents: numbered from 1, at most kMaxRunningJobs running at once (the next is refused), the
// last kMaxFinishedJobs finished ones kept for reading. Owns the
// spawn thread every job is spawned on.
//
// A command a call started and waits for may be moved into the background while its shell runs
// (Ctrl+B): the table is the runner's BackgroundHandoff (background_handoff.hpp); the runner
// enrolls the command here (MovableCommand), move_foreground_to_background asks every
// enrolled one to move, each taking a place among the kMaxRunningJobs (at the limit it stays in
// the foreground), and the runner, seeing the request, hands its process over with adopt(), which
// makes it the next job as if it had been started so.
//
// When a job finishes, a notice (id, command, how it ended, its last lines) is posted to the
// pending notices under job_notice_key(id), so the model hears of it at its next turn; a tool
// that shows the model the job's end itself withdraws it. Destroying the table kills every job
// still running (nib's exit; SIGTERM and a second SIGINT kill them with all descendants).
// Thread-safe.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/pending_notices.hpp"
#include "core/wake_list.hpp"
#include "process/background_handoff.hpp"
#include "process/job.hpp"
#include "process/spawn_thread.hpp"

namespace nib::process {

struct JobTableOptions {
  core::PendingNotices* notices = nullptr;  // where exit notices go; none when null
  // The notice of a job's end (tools/job_report.hpp words it); none: no notice is posted.
  std::function<std::string(const JobSnapshot&)> end_notice;
  // Creates a job's log; `prefix` is "job-<id>".
  std::function<util::Result<LogFile>(std::string_view prefix)> create_log = create_private_log;
  // What the jobs' watchers measure their waits in (the settle checks after a shell's exit).
  core::Clock* clock = &core::steady_clock();
};

class JobTable;

// A running foreground command's enrolment with a JobTable (JobTable::enroll), owned by its
// runner: `fd()` becomes readable when a move into the background is requested. Destroying it
// withdraws the command (a move requested meanwhile gives its place back). Thread-safe.
class MovableCommand final : public MoveEnrolment {
 public:
  MovableCommand(JobTable& table, std::string command,
                 std::chrono::steady_clock::time_point started);
  ~MovableCommand();
  MovableCommand(const MovableCommand&) = delete;
  MovableCommand& operator=(const MovableCommand&) = delete;

  // An eventfd, readable once a move has been requested (read it to clear it); -1 if none
  // could be made (the command then cannot move).
  int fd() const override { return wake_fd_.get(); }
  bool move_requested() const override { return requested_.load(); }

 private:
  friend class JobTable;
  JobTable& table_;
  const std::string command_;
  const std::chrono::steady_clock::time_point started_;
  const UniqueFd wake_fd_;
  std::atomic<bool> requested_ = false;  // set under the table's lock
  bool enrolled_ = false;                // guarded by the table's lock
};

// What a request to move the foreground commands into the background did.
struct MoveOutcome {
  std::size_t moving = 0;   // commands asked to move (each becomes a job)
  std::size_t refused = 0;  // left in the foreground: kMaxRunningJobs jobs already run
};

class JobTable final : public BackgroundHandoff {
 public:
  explicit JobTable(JobTableOptions options = {});
  ~JobTable();
  JobTable(const JobTable&) = delete;
  JobTable& operator=(const JobTable&) = delete;

  // Starts `request` as the next job (its output merged and logged, spawned on this table's
  // spawn thread); refused when kMaxRunningJobs already run.
  util::Result<JobSnapshot> start(CommandRequest request);

  // The job `id`; null when there is none (never started, or forgotten).
  std::shared_ptr<Job> find(int id) const;
  // Every job kept, by id.
  std::vector<JobSnapshot> list() const;
  std::size_t running() const;

  // The model has seen job `id`'s end: its notice is not needed.
  void withdraw_notice(int id);

  // Keeps `on_change` registered while the handle lives: it is called on any thread when a job
  // has started or finished (a footer's count, the user's notice of an end). It may run once
  // more just after the handle is gone (see WakeList), so it must own what it touches.
  class Listener {
   public:
    Listener(JobTable& table, std::function<void()> on_change)
        : list_(table.changed_), registration_(*list_, std::move(on_change)) {}

   private:
    std::shared_ptr<core::WakeList> list_;
    core::WakeList::Registration registration_;
  };

  // --- moving foreground commands into the background (see above)
  // The runner of `command`, about to start it (at `started`), makes it movable; null when no
  // eventfd could be made.
  std::unique_ptr<MoveEnrolment> enroll(std::string command,
                                        std::chrono::steady_clock::time_point started) override;
  // Asks every enrolled command to move, oldest first, as long as places among the
  // kMaxRunningJobs remain.
  MoveOutcome move_foreground_to_background();
  // When each enrolled command not yet asked to move started (for a hint to the user).
  std::vector<std::chrono::steady_clock::time_point> foreground_starts() const;
  // The runner of `movable`, asked to move, hands over its running `command` (whose output it
  // has read so far): it becomes the next job. Moves from `command` only when it succeeds; on
  // failure (no log) the command stays the runner's and is no longer movable.
  util::Result<AdoptedCommand> adopt(MoveEnrolment& enrolment, StartedCommand& command) override;
  // The thread a movable command's shell is spawned on, so that it outlives its call's thread.
  SpawnThread& spawn_thread() override { return spawner_; }

 private:
  friend class MovableCommand;
  // Starts job `id` (its log, its process, its watcher), without the lock.
  util::Result<std::shared_ptr<Job>> start_job(int id, CommandRequest request);
  util::Result<LogFile> create_job_log(int id) const;
  Job::OnFinished on_finished() const;
  // Adds a job started outside the lock, which held its place in starting_.
  JobSnapshot add_started(int id, std::shared_ptr<Job> job);
  // Jobs running or starting, with mutex_ held.
  std::size_t places_taken_locked() const;
  void withdraw(MovableCommand& movable);
  void forget_old_finished();  // with mutex_ held

  JobTableOptions options_;
  // Shared with each job's watcher, which announces its end last, maybe after the table is gone
  // (a caller may still hold the job).
  const std::shared_ptr<core::WakeList> changed_ = std::make_shared<core::WakeList>();
  SpawnThread spawner_;  // outlives the jobs (destroyed after them)
  mutable std::mutex mutex_;
  int next_id_ = 1;           // guarded by mutex_
  std::size_t starting_ = 0;  // jobs being started, outside the lock; guarded by mutex_
  std::map<int, std::shared_ptr<Job>> jobs_;  // guarded by mutex_
  std::vector<MovableCommand*> foreground_;   // enrolled, oldest first; guarded by mutex_
};

// The key of job `id`'s notice among the pending notices.
std::string job_notice_key(int id);

}  // namespace nib::process
