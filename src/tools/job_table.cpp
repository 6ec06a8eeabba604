#include "tools/job_table.hpp"

#include <algorithm>

#include "tools/job_report.hpp"
#include "tools/limits.hpp"

namespace nib::tools {

std::string job_notice_key(int id) {
  return "job-" + std::to_string(id);
}

JobTable::JobTable(JobTableOptions options) : options_(std::move(options)) {}

JobTable::~JobTable() {
  std::map<int, std::shared_ptr<Job>> jobs;
  {
    const std::lock_guard lock(mutex_);
    jobs.swap(jobs_);
  }
  // All are asked to die first, so that their kills run at once; then each end is awaited (a
  // caller may still hold a job, so its destructor is not the place).
  for (auto& [id, job] : jobs) job->kill("nib's exit", std::chrono::milliseconds(0));
  for (auto& [id, job] : jobs) {
    job->kill("nib's exit", kDrainCap);
    job->wait_cleaned_up(kDrainCap);
  }
}

util::Result<JobSnapshot> JobTable::start(CommandRequest request) {
  using Result = util::Result<JobSnapshot>;
  int id = 0;
  {
    const std::lock_guard lock(mutex_);
    std::vector<JobSnapshot> running;
    for (const auto& [job_id, job] : jobs_) {
      if (!job->finished()) running.push_back(job->snapshot());
    }
    if (running.size() + starting_ >= kMaxRunningJobs) {
      return Result::failure(std::to_string(running.size() + starting_) +
                             " background jobs are running, the most nib runs at once. End one "
                             "you no longer need with job_kill, then start this one again.\n" +
                             describe_job_list(running));
    }
    id = next_id_++;
    ++starting_;  // holds its place while it starts, outside the lock
  }
  auto started = start_job(id, std::move(request));
  JobSnapshot snapshot;
  {
    const std::lock_guard lock(mutex_);
    --starting_;
    if (!started.ok()) return Result::failure(started.error());
    snapshot = started.value()->snapshot();
    jobs_.emplace(id, std::move(started.value()));
    forget_old_finished();
  }
  if (options_.on_change) options_.on_change();
  return snapshot;
}

util::Result<std::shared_ptr<Job>> JobTable::start_job(int id, CommandRequest request) {
  using Result = util::Result<std::shared_ptr<Job>>;
  auto log = options_.create_log("job-" + std::to_string(id));
  if (!log.ok()) {
    return Result::failure("the job's log could not be created (" + log.error() +
                           "), so it was not started");
  }
  request.spawn_thread = &spawner_;
  request.merge_stderr = true;
  request.job_id = id;
  core::PendingNotices* notices = options_.notices;
  const auto on_change = options_.on_change;
  return Job::start(id, request, std::move(log.value()),
                    {.record =
                         [notices](const JobSnapshot& job) {
                           if (notices != nullptr) {
                             notices->post(job_notice_key(job.id), job_end_notice(job));
                           }
                         },
                     .announce = on_change});
}

void JobTable::forget_old_finished() {
  std::size_t finished = 0;
  for (const auto& [id, job] : jobs_) finished += job->finished() ? 1 : 0;
  for (auto it = jobs_.begin(); it != jobs_.end() && finished > kMaxFinishedJobs;) {
    if (it->second->finished()) {
      it = jobs_.erase(it);
      --finished;
    } else {
      ++it;
    }
  }
}

std::shared_ptr<Job> JobTable::find(int id) const {
  const std::lock_guard lock(mutex_);
  const auto found = jobs_.find(id);
  return found == jobs_.end() ? nullptr : found->second;
}

std::vector<JobSnapshot> JobTable::list() const {
  const std::lock_guard lock(mutex_);
  std::vector<JobSnapshot> jobs;
  for (const auto& [id, job] : jobs_) jobs.push_back(job->snapshot());
  return jobs;
}

std::size_t JobTable::running() const {
  const std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(std::count_if(
      jobs_.begin(), jobs_.end(), [](const auto& entry) { return !entry.second->finished(); }));
}

void JobTable::withdraw_notice(int id) {
  if (options_.notices != nullptr) options_.notices->withdraw(job_notice_key(id));
}

}  // namespace nib::tools
