#pragma once
// The background jobs of one nib process (job.hpp), shared by the main agent and its
// subagents: numbered from 1, at most kMaxRunningJobs running at once (the next is refused with
// the list of those that run), the last kMaxFinishedJobs finished ones kept for reading. Owns the
// spawn thread every job is spawned on.
//
// When a job finishes, a notice (id, command, how it ended, its last lines) is posted to the
// pending notices under job_notice_key(id), so the model hears of it at its next turn; a tool
// that shows the model the job's end itself withdraws it. Destroying the table kills every job
// still running (nib's exit; SIGTERM and a second SIGINT kill them with all descendants).
// Thread-safe.

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/pending_notices.hpp"
#include "tools/job.hpp"
#include "tools/spawn_thread.hpp"

namespace nib::tools {

struct JobTableOptions {
  core::PendingNotices* notices = nullptr;  // where exit notices go; none when null
  // Creates a job's log; `prefix` is "job-<id>".
  std::function<util::Result<LogFile>(std::string_view prefix)> create_log = create_private_log;
  // Called on any thread when a job has started or finished (a footer's count).
  std::function<void()> on_change;
};

class JobTable {
 public:
  explicit JobTable(JobTableOptions options = {});
  ~JobTable();
  JobTable(const JobTable&) = delete;
  JobTable& operator=(const JobTable&) = delete;

  // Starts `request` as the next job (its output merged and logged, spawned on this table's
  // spawn thread); refused, with the running jobs listed, when kMaxRunningJobs already run.
  util::Result<JobSnapshot> start(CommandRequest request);

  // The job `id`; null when there is none (never started, or forgotten).
  std::shared_ptr<Job> find(int id) const;
  // Every job kept, by id.
  std::vector<JobSnapshot> list() const;
  std::size_t running() const;

  // The model has seen job `id`'s end: its notice is not needed.
  void withdraw_notice(int id);

 private:
  // Starts job `id` (its log, its process, its watcher), without the lock.
  util::Result<std::shared_ptr<Job>> start_job(int id, CommandRequest request);
  void forget_old_finished();  // with mutex_ held

  JobTableOptions options_;
  SpawnThread spawner_;  // outlives the jobs (destroyed after them)
  mutable std::mutex mutex_;
  int next_id_ = 1;           // guarded by mutex_
  std::size_t starting_ = 0;  // jobs being started, outside the lock; guarded by mutex_
  std::map<int, std::shared_ptr<Job>> jobs_;  // guarded by mutex_
};

// The key of job `id`'s notice among the pending notices.
std::string job_notice_key(int id);

}  // namespace nib::tools
