#include "process/job_table.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>

#include "process/limits.hpp"

namespace nib::process {

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

std::size_t JobTable::places_taken_locked() const {
  const auto running = std::count_if(jobs_.begin(), jobs_.end(),
                                     [](const auto& entry) { return !entry.second->finished(); });
  return static_cast<std::size_t>(running) + starting_;
}

util::Result<JobSnapshot> JobTable::start(CommandRequest request) {
  using Result = util::Result<JobSnapshot>;
  int id = 0;
  {
    const std::lock_guard lock(mutex_);
    if (places_taken_locked() >= kMaxRunningJobs) {
      return Result::failure(std::to_string(places_taken_locked()) +
                             " background jobs are running, the most nib runs at once");
    }
    id = next_id_++;
    ++starting_;  // holds its place while it starts, outside the lock
  }
  auto started = start_job(id, std::move(request));
  if (!started.ok()) {
    const std::lock_guard lock(mutex_);
    --starting_;
    return Result::failure(started.error());
  }
  return add_started(id, std::move(started.value()));
}

JobSnapshot JobTable::add_started(int id, std::shared_ptr<Job> job) {
  JobSnapshot snapshot = job->snapshot();
  {
    const std::lock_guard lock(mutex_);
    --starting_;
    jobs_.emplace(id, std::move(job));
    forget_old_finished();
  }
  changed_->notify_all();
  return snapshot;
}

util::Result<LogFile> JobTable::create_job_log(int id) const {
  auto log = options_.create_log("job-" + std::to_string(id));
  if (!log.ok()) {
    return util::Result<LogFile>::failure("the job's log could not be created (" + log.error() +
                                          ")");
  }
  return log;
}

Job::OnFinished JobTable::on_finished() const {
  return {
      .record =
          [notices = options_.notices, end_notice = options_.end_notice](const JobSnapshot& job) {
            if (notices != nullptr && end_notice) {
              notices->post(job_notice_key(job.id), end_notice(job));
            }
          },
      .announce = [changed = changed_] { changed->notify_all(); }};
}

util::Result<std::shared_ptr<Job>> JobTable::start_job(int id, CommandRequest request) {
  using Result = util::Result<std::shared_ptr<Job>>;
  auto log = create_job_log(id);
  if (!log.ok()) return Result::failure(log.error() + ", so it was not started");
  request.spawn_thread = &spawner_;
  request.merge_stderr = true;
  request.job_id = id;
  request.clock = options_.clock;
  return Job::start(id, request, std::move(log.value()), on_finished());
}

MovableCommand::MovableCommand(JobTable& table, std::string command,
                               std::chrono::steady_clock::time_point started)
    : table_(table),
      command_(std::move(command)),
      started_(started),
      wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

MovableCommand::~MovableCommand() {
  table_.withdraw(*this);
}

std::unique_ptr<MoveEnrolment> JobTable::enroll(std::string command,
                                                std::chrono::steady_clock::time_point started) {
  auto movable = std::make_unique<MovableCommand>(*this, std::move(command), started);
  if (movable->fd() < 0) return nullptr;
  const std::lock_guard lock(mutex_);
  movable->enrolled_ = true;
  foreground_.push_back(movable.get());
  return movable;
}

void JobTable::withdraw(MovableCommand& movable) {
  const std::lock_guard lock(mutex_);
  if (!movable.enrolled_) return;
  movable.enrolled_ = false;
  std::erase(foreground_, &movable);
  if (movable.requested_) --starting_;  // the place it held is free again
}

MoveOutcome JobTable::move_foreground_to_background() {
  MoveOutcome outcome;
  {
    const std::lock_guard lock(mutex_);
    for (MovableCommand* movable : foreground_) {
      if (movable->requested_) continue;
      if (places_taken_locked() >= kMaxRunningJobs) {
        ++outcome.refused;
        continue;
      }
      ++starting_;  // its place, held until it is adopted or withdrawn
      movable->requested_ = true;
      const std::uint64_t one = 1;
      [[maybe_unused]] const auto written = ::write(movable->fd(), &one, sizeof one);
      ++outcome.moving;
    }
  }
  return outcome;
}

std::vector<std::chrono::steady_clock::time_point> JobTable::foreground_starts() const {
  const std::lock_guard lock(mutex_);
  std::vector<std::chrono::steady_clock::time_point> starts;
  for (const MovableCommand* movable : foreground_) {
    if (!movable->requested_) starts.push_back(movable->started_);
  }
  return starts;
}

util::Result<AdoptedCommand> JobTable::adopt(MoveEnrolment& enrolment, StartedCommand& command) {
  using Result = util::Result<AdoptedCommand>;
  // Every enrolment this table hands out is a MovableCommand (enroll above).
  auto& movable = static_cast<MovableCommand&>(enrolment);
  int id = 0;
  {
    const std::lock_guard lock(mutex_);
    if (!movable.enrolled_ || !movable.requested_) {
      return Result::failure("no move into the background was requested");
    }
    // From here on its place in starting_ is this adoption's, whatever becomes of it.
    movable.enrolled_ = false;
    std::erase(foreground_, &movable);
    id = next_id_++;
  }
  const auto give_up = [this](const std::string& error) {
    const std::lock_guard lock(mutex_);
    --starting_;
    return Result::failure(error);
  };
  auto log = create_job_log(id);
  if (!log.ok()) return give_up(log.error());
  const CommandEntryId entry = command.entry;
  auto job = Job::adopt(id, movable.command_, command, movable.started_, std::move(log.value()),
                        on_finished(), *options_.clock);
  if (!job.ok()) return give_up(job.error());
  // A no-op if the job has ended meanwhile and its entry is gone.
  command_became_job(entry, id);
  const JobSnapshot snapshot = add_started(id, std::move(job.value()));
  return AdoptedCommand{.job_id = snapshot.id, .log = snapshot.log};
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

}  // namespace nib::process
