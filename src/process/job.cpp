#include "process/job.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>

#include "process/limits.hpp"
#include "process/process_reaper.hpp"

namespace nib::process {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// One read's worth; the job's pipe itself holds up to 1 MiB (subprocess.cpp).
constexpr std::size_t kReadChunkBytes = 64 * 1024;

int poll_timeout_ms(Clock::time_point now, Clock::time_point until) {
  if (until <= now) return 0;
  return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(until - now).count());
}

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
                std::move(on_finished), std::move(wake.value()));
}

util::Result<std::shared_ptr<Job>> Job::adopt(int id, std::string text, StartedCommand& command,
                                              Clock::time_point started_at, LogFile log,
                                              OnFinished on_finished) {
  using Result = util::Result<std::shared_ptr<Job>>;
  auto wake = watcher_wake_fd();
  if (!wake.ok()) return Result::failure(wake.error());
  return launch(id, std::move(text), std::move(command), started_at, std::move(log),
                std::move(on_finished), std::move(wake.value()));
}

std::shared_ptr<Job> Job::launch(int id, std::string text, StartedCommand command,
                                 Clock::time_point started_at, LogFile log, OnFinished on_finished,
                                 UniqueFd wake) {
  std::shared_ptr<Job> job(new Job(id, std::move(text), std::move(command), started_at,
                                   std::move(log), std::move(on_finished), std::move(wake)));
  job->watcher_ = std::thread([raw = job.get()] { raw->watch(); });
  return job;
}

Job::Job(int id, std::string text, StartedCommand command, Clock::time_point started_at,
         LogFile log, OnFinished on_finished, UniqueFd wake)
    : id_(id),
      command_(std::move(text)),
      started_(std::move(command)),
      on_finished_(std::move(on_finished)),
      wake_fd_(std::move(wake)),
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

// The watcher: reads the output into the log, notices the shell's exit, then checks until
// nothing of the job runs; kills the tree when asked. Runs until the job has finished.
void Job::watch() {
  SpawnedProcess& process = started_.process;
  const std::string tag_entry = started_.tag_entry();
  std::vector<char> buffer(kReadChunkBytes);
  // stdout, and stderr when the job took over a command whose streams were apart.
  struct Pipe {
    int fd;
    bool open;
  };
  std::array<Pipe, 2> pipes{{{process.stdout_fd.get(), process.stdout_fd.valid()},
                             {process.stderr_fd.get(), process.stderr_fd.valid()}}};
  bool shell_exited = false;
  int wait_status = 0;
  bool status_lost = false;
  bool kill_wanted = false;
  bool killed = false;
  Clock::time_point next_check{};

  // Reads once from the pipe; true when it gave bytes.
  const auto read_output = [&](Pipe& pipe) {
    const ssize_t got = ::read(pipe.fd, buffer.data(), buffer.size());
    if (got > 0) {
      const std::lock_guard lock(mutex_);
      log_.append(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
      ++changes_;
      changed_.notify_all();
      return true;
    }
    if (got == 0 || (errno != EAGAIN && errno != EINTR)) pipe.open = false;
    return false;
  };
  const auto check_exit = [&] {
    switch (reap_registered(process.pid, &wait_status)) {
      case ReapStatus::kRunning:
        return;
      case ReapStatus::kReaped:
        wait_status = reported_wait_status(process, wait_status);
        break;
      case ReapStatus::kLost:
        status_lost = true;
        break;
    }
    shell_exited = true;
    next_check = Clock::now();  // settle at once when nothing else runs
    const std::lock_guard lock(mutex_);
    status_.shell_exited = true;
    if (!status_lost && WIFEXITED(wait_status)) status_.exit_code = WEXITSTATUS(wait_status);
    if (!status_lost && WIFSIGNALED(wait_status)) status_.signal = WTERMSIG(wait_status);
    ++changes_;
    changed_.notify_all();
  };
  // True when nothing of the job runs any more; collects its dead on the way.
  const auto settled = [&] {
    const std::vector<ProcessInfo> processes = scan_processes();
    reap_adopted_zombies(processes);
    return !command_left_processes(process.pid, tag_entry, processes);
  };

  while (true) {
    std::array<pollfd, 4> fds{};
    std::array<Pipe*, 4> pipe_of{};  // null for the exit and wake-up descriptors
    nfds_t count = 0;
    int exit_index = -1;
    for (Pipe& pipe : pipes) {
      if (!pipe.open) continue;
      pipe_of[count] = &pipe;
      fds[count++] = {pipe.fd, POLLIN, 0};
    }
    if (!shell_exited && process.pidfd.valid()) {
      exit_index = static_cast<int>(count);
      fds[count++] = {process.pidfd.get(), POLLIN, 0};
    }
    const int wake_index = static_cast<int>(count);
    fds[count++] = {wake_fd_.get(), POLLIN, 0};
    int timeout = -1;
    if (shell_exited) {
      timeout = poll_timeout_ms(Clock::now(), next_check);
    } else if (!process.pidfd.valid()) {
      timeout = static_cast<int>(kExitPollInterval.count());
    }
    if (::poll(fds.data(), count, timeout) < 0 && errno != EINTR) break;
    for (nfds_t i = 0; i < count; ++i) {
      if (pipe_of[i] != nullptr && fds[i].revents != 0) read_output(*pipe_of[i]);
    }
    if (fds[wake_index].revents != 0) {
      std::uint64_t counter = 0;
      [[maybe_unused]] const auto got = ::read(wake_fd_.get(), &counter, sizeof counter);
      const std::lock_guard lock(mutex_);
      kill_wanted = !kill_requested_by_.empty();
    }
    if (!shell_exited && (exit_index < 0 || fds[exit_index].revents != 0)) check_exit();
    if (kill_wanted && !killed) {
      // Once: a frozen tree cannot fork, so one kill ends it (as on a timeout).
      if (shell_exited) {
        kill_command_remains(process.pid, tag_entry);
      } else {
        kill_process_tree(process.pid, tag_entry);
      }
      killed = true;
    }
    if (shell_exited && Clock::now() >= next_check) {
      if (settled()) break;
      next_check = Clock::now() + kJobSettleInterval;
    }
  }
  // Nothing of the job runs: what its pipes still hold is the last of its output (a process
  // that dropped the tag may still hold a pipe open, so this stops at the first empty read).
  for (Pipe& pipe : pipes) {
    while (pipe.open && read_output(pipe)) {
    }
  }
  {
    const std::lock_guard lock(mutex_);
    settle_locked(wait_status, status_lost);
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
