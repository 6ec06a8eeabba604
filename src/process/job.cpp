#include "process/job.hpp"

#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "process/child_watch.hpp"
#include "process/limits.hpp"
#include "process/process_reaper.hpp"

namespace nib::process {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

util::Result<UniqueFd> watcher_wake_fd() {
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake.valid()) {
    return util::Result<UniqueFd>::failure("cannot create an eventfd for the job's watcher");
  }
  return wake;
}

}  // namespace

util::Result<std::shared_ptr<Job>> Job::start(int id, const CommandRequest& request, LogFile log,
                                              OnFinished on_finished) {
  using Result = util::Result<std::shared_ptr<Job>>;
  auto wake = watcher_wake_fd();
  if (!wake.ok()) return Result::failure(wake.error());
  auto started = start_command(request);
  if (!started.ok()) return Result::failure(started.error());
  return launch(id, request.command, std::move(started.value()), Clock::now(), std::move(log),
                std::move(on_finished), std::move(wake.value()), *request.clock);
}

util::Result<std::shared_ptr<Job>> Job::adopt(int id, std::string text, StartedCommand& command,
                                              Clock::time_point started_at, LogFile log,
                                              OnFinished on_finished, core::Clock& clock) {
  using Result = util::Result<std::shared_ptr<Job>>;
  auto wake = watcher_wake_fd();
  if (!wake.ok()) return Result::failure(wake.error());
  return launch(id, std::move(text), std::move(command), started_at, std::move(log),
                std::move(on_finished), std::move(wake.value()), clock);
}

std::shared_ptr<Job> Job::launch(int id, std::string text, StartedCommand command,
                                 Clock::time_point started_at, LogFile log, OnFinished on_finished,
                                 UniqueFd wake, core::Clock& clock) {
  std::shared_ptr<Job> job(new Job(id, std::move(text), std::move(command), started_at,
                                   std::move(log), std::move(on_finished), std::move(wake), clock));
  job->watcher_ = std::thread([raw = job.get()] { raw->watch(); });
  return job;
}

Job::Job(int id, std::string text, StartedCommand command, Clock::time_point started_at,
         LogFile log, OnFinished on_finished, UniqueFd wake, core::Clock& clock)
    : id_(id),
      command_(std::move(text)),
      started_(std::move(command)),
      on_finished_(std::move(on_finished)),
      wake_fd_(std::move(wake)),
      clock_(clock),
      log_(std::move(log)) {
  status_.started = started_at;
}

Job::~Job() {
  kill("nib's exit", std::chrono::milliseconds(0));
  if (watcher_.joinable()) watcher_.join();
}

void Job::wake_watcher() const {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = ::write(wake_fd_.get(), &one, sizeof one);
}

JobSnapshot Job::snapshot_locked() const {
  return {id_,
          command_,
          started_.process.pid,
          log_.path(),
          status_,
          log_.end(),
          log_.last_lines(kJobNoticeLines)};
}

JobSnapshot Job::snapshot() const {
  const std::lock_guard lock(mutex_);
  return snapshot_locked();
}

bool Job::finished() const {
  const std::lock_guard lock(mutex_);
  return status_.end != JobEnd::kRunning;
}

JobRead Job::read_new(std::chrono::milliseconds wait, std::stop_token stop, std::size_t max_bytes,
                      std::size_t max_lines) {
  std::unique_lock lock(mutex_);
  log_.flush_partial_line();
  JobRead read;
  const bool nothing_new = log_.end().bytes == read_to_.bytes;
  if (nothing_new && status_.end == JobEnd::kRunning && wait > 0ms) {
    const std::uint64_t seen = changes_;
    changed_.wait_for(lock, stop, wait, [&] { return changes_ != seen; });
    log_.flush_partial_line();
    read.waited_in_vain = changes_ == seen;
  }
  read.output = log_.since(read_to_, max_bytes, max_lines);
  read_to_ = read.output.end;
  read.job = snapshot_locked();
  return read;
}

JobStatus Job::kill(std::string killed_by, std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  if (status_.end != JobEnd::kRunning) return status_;
  if (kill_requested_by_.empty()) {
    kill_requested_by_ = std::move(killed_by);
    wake_watcher();
  }
  changed_.wait_for(lock, wait, [this] { return status_.end != JobEnd::kRunning; });
  return status_;
}

bool Job::wait_cleaned_up(std::chrono::milliseconds wait) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, wait, [this] { return watcher_done_; });
}

void Job::wait_finished(std::stop_token stop) const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, stop, [this] { return status_.end != JobEnd::kRunning; });
}

// The end policy of a job: its output goes to the log, its shell's exit to the status; a kill
// request kills the tree once; after the shell's exit, whether anything of the job still runs is
// checked every kJobSettleInterval, and the watch is over once nothing does.
class Job::EndPolicy final : public WatchPolicy {
 public:
  explicit EndPolicy(Job& job) : job_(job), tag_entry_(job.started_.tag_entry()) {}

  void on_output(std::size_t, std::string_view bytes) override {
    const std::lock_guard lock(job_.mutex_);
    job_.log_.append(bytes);
    ++job_.changes_;
    job_.changed_.notify_all();
  }

  void on_exit(const ChildExit& exit, TimePoint now) override {
    exit_ = exit;
    next_check_ = now;  // settle at once when nothing else runs
    const std::lock_guard lock(job_.mutex_);
    job_.status_.shell_exited = true;
    if (exit.status_known && WIFEXITED(exit.wait_status)) {
      job_.status_.exit_code = WEXITSTATUS(exit.wait_status);
    }
    if (exit.status_known && WIFSIGNALED(exit.wait_status)) {
      job_.status_.signal = WTERMSIG(exit.wait_status);
    }
    ++job_.changes_;
    job_.changed_.notify_all();
  }

  void on_wake(int) override {
    const std::lock_guard lock(job_.mutex_);
    kill_wanted_ = !job_.kill_requested_by_.empty();
  }

  Next next(TimePoint now, const WatchState& state) override {
    const pid_t shell = job_.started_.process.pid;
    if (kill_wanted_ && !killed_) {
      // Once: a frozen tree cannot fork, so one kill ends it (as on a timeout).
      if (state.exited) {
        kill_command_remains(shell, tag_entry_);
      } else {
        kill_process_tree(shell, tag_entry_);
      }
      killed_ = true;
    }
    if (state.exited && now >= next_check_) {
      if (settled()) return {.done = true};
      next_check_ = now + kJobSettleInterval;
    }
    return {.wake_at = state.exited ? std::optional(next_check_) : std::nullopt};
  }

  const ChildExit& exit() const { return exit_; }

 private:
  // True when nothing of the job runs any more; collects its dead on the way.
  bool settled() const {
    const std::vector<ProcessInfo> processes = scan_processes();
    reap_adopted_zombies(processes);
    return !command_left_processes(job_.started_.process.pid, tag_entry_, processes);
  }

  Job& job_;
  const std::string tag_entry_;
  ChildExit exit_;
  bool kill_wanted_ = false;
  bool killed_ = false;
  TimePoint next_check_{};
};

// The watcher: runs the job's watch (see EndPolicy) until the job has finished.
void Job::watch() {
  SpawnedProcess& process = started_.process;
  // stdout, and stderr when the job took over a command whose streams were apart.
  ChildWatch watch(process, {process.stdout_fd.get(), process.stderr_fd.get()}, clock_);
  watch.add_wake_fd(wake_fd_.get());
  EndPolicy policy(*this);
  watch.run(policy);
  // Nothing of the job runs: what its pipes still hold is the last of its output (a process
  // that dropped the tag may still hold a pipe open, so this stops at the first empty read).
  watch.read_available(policy);
  {
    const std::lock_guard lock(mutex_);
    settle_locked(policy.exit().wait_status, !policy.exit().status_known);
  }
  // After the notice is posted: once the job's registry entry is gone, the model's next turn
  // is sure to hear of its end.
  finish_command(started_, /*tree_gone=*/true);
  {
    const std::lock_guard lock(mutex_);
    watcher_done_ = true;
    changed_.notify_all();
  }
  if (on_finished_.announce) on_finished_.announce();
}

void Job::settle_locked(int wait_status, bool status_lost) {
  log_.flush_partial_line();
  if (!kill_requested_by_.empty()) {
    status_.end = JobEnd::kKilled;
    status_.killed_by = kill_requested_by_;
  } else if (status_lost) {
    status_.end = JobEnd::kNoStatus;
  } else if (WIFSIGNALED(wait_status)) {
    status_.end = JobEnd::kSignaled;
  } else {
    status_.end = JobEnd::kExited;
  }
  status_.ended = Clock::now();
  ++changes_;
  changed_.notify_all();
  if (on_finished_.record) on_finished_.record(snapshot_locked());
}

}  // namespace nib::process
