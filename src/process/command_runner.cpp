#include "process/command_runner.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <span>
#include <unordered_set>
#include <vector>

#include "process/background_handoff.hpp"
#include "process/child_watch.hpp"
#include "process/command_start.hpp"
#include "process/limits.hpp"
#include "process/process_reaper.hpp"
#include "util/fd_io.hpp"

namespace nib::process {
namespace {

using TimePoint = core::Clock::TimePoint;
using namespace std::chrono_literals;

// Large reads keep a flooding command near pipe speed (the pipe itself holds 1 MiB).
constexpr std::size_t kReadChunkBytes = 256 * 1024;
// What a full pipe of a command holds (subprocess.cpp sets this size).
constexpr std::uint64_t kPipeBytes = 1024 * 1024;
// Longer timeouts are treated as this (keeps the deadline arithmetic from overflowing).
constexpr std::chrono::duration<double> kMaxTimeout{10.0 * 365 * 24 * 3600};

void add_note(std::string& notes, const std::string& note) {
  notes += (notes.empty() ? "" : "; ") + note;
}

std::string resumed_note(int times) {
  return "a process of the command stopped (SIGSTOP or SIGTSTP) and stayed stopped for " +
         std::to_string(kStoppedProcessGrace.count()) + " ms, so nib resumed it with SIGCONT (" +
         std::to_string(times) + (times == 1 ? " time" : " times") +
         "): commands run without job control, and nothing else would have resumed it";
}

std::string drain_cap_note() {
  return "output was still arriving " + std::to_string(kDrainCap.count()) +
         " ms after the shell exited, from a process the command left running in the "
         "background; nib stopped collecting there, so what it prints later is not shown. "
         "Redirect a background process's output to a file (cmd > file.log 2>&1 &) and read "
         "the file";
}

void signal_eventfd(int fd) {
  const std::uint64_t one = 1;
  if (fd >= 0) [[maybe_unused]]
    const auto written = ::write(fd, &one, sizeof one);
}

// The end policy of a command a call waits for (see command_runner.hpp for its rules): its
// output goes to the result's captures, its exit to the result, and it decides when to kill
// the tree, when to resume stopped processes, and when the call is over.
class CommandWaiter final : public WatchPolicy {
 public:
  CommandWaiter(SpawnedProcess& process, CommandResult& result, std::string tag_entry,
                core::Clock& clock, std::optional<TimePoint> deadline, std::stop_token stop,
                const MoveEnrolment* movable, const std::function<void(std::string_view)>& watcher)
      : process_(process),
        result_(result),
        tag_entry_(std::move(tag_entry)),
        deadline_(deadline),
        stop_(std::move(stop)),
        next_stop_check_(clock.now() + kStoppedProcessGrace),
        movable_(movable),
        watcher_(watcher),
        watch_(process, {process.stdout_fd.get(), process.stderr_fd.get()}, clock,
               kReadChunkBytes) {
    if (movable_ != nullptr) watch_.add_wake_fd(movable_->fd());
  }

  // True when nib killed the command's tree (on timeout, stop, or a shell that would not exit).
  bool killed() const { return kill_reason_.has_value(); }
  // True when run() returned to hand the running command over to the background.
  bool moving() const { return moving_; }
  // The handover failed: the command stays here, and cannot be moved again.
  void stay() {
    moving_ = false;
    if (movable_ != nullptr) watch_.remove_wake_fd(movable_->fd());
    movable_ = nullptr;
  }

  void run() {
    UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    can_wake_ = wake.valid();
    watch_.add_wake_fd(wake.get());
    {
      std::stop_callback on_stop(stop_, [fd = wake.get()] { signal_eventfd(fd); });
      watch_.run(*this);
    }
    watch_.remove_wake_fd(wake.get());
    if (moving_) {
      // What the pipes hold now was printed before the move, so it belongs to the result (at
      // most a full pipe's worth each, so a command that floods cannot hold the move up); the
      // rest is the job's.
      watch_.read_available(*this, kPipeBytes);
      return;
    }
    if (kill_reason_) result_.end = *kill_reason_;
    if (result_.resumed_stops > 0) add_note(result_.error, resumed_note(result_.resumed_stops));
  }

  void on_output(std::size_t pipe, std::string_view bytes) override {
    (pipe == 0 ? result_.stdout_capture : result_.stderr_capture).append(bytes);
    if (watcher_) watcher_(bytes);
  }

  void on_exit(const ChildExit& exit, TimePoint now) override {
    if (!exit.status_known) {
      result_.end = CommandEnd::kNoStatus;
    } else if (WIFEXITED(exit.wait_status)) {
      result_.end = CommandEnd::kExited;
      result_.exit_code = WEXITSTATUS(exit.wait_status);
    } else if (WIFSIGNALED(exit.wait_status)) {
      result_.end = CommandEnd::kSignaled;
      result_.signal = WTERMSIG(exit.wait_status);
      result_.core_dumped = WCOREDUMP(exit.wait_status);
    }
    exit_time_ = now;
  }

  Next next(TimePoint now, const WatchState& state) override {
    if (state.exited) {
      if (!state.output_open) return {.done = true};
      // A stop after a normal exit ends the drain; after a kill, the dead tree's pipes reach
      // end-of-file at once and what they still hold is worth reading.
      if (stop_.stop_requested() && !kill_reason_) return {.done = true};
      if (now >= drain_end(state)) {
        if (now >= exit_time_ + kDrainCap) add_note(result_.error, drain_cap_note());
        return {.done = true};
      }
    } else if (kill_time_) {
      if (now >= *kill_time_ + kDrainCap) {
        give_up();
        return {.done = true};
      }
    } else if (stop_.stop_requested()) {
      kill(CommandEnd::kAborted, now);
    } else if (movable_ != nullptr && movable_->move_requested()) {
      moving_ = true;
      return {.done = true};
    } else if (deadline_ && now >= *deadline_) {
      kill(CommandEnd::kTimedOut, now);
    } else if (now >= next_stop_check_) {
      resume_long_stopped();
      next_stop_check_ = now + kStoppedProcessGrace;
    }
    return {.wake_at = next_decision(now, state)};
  }

 private:
  // When collecting stops after the exit: quiet for kQuietAfterExit, or kDrainCap after it.
  TimePoint drain_end(const WatchState& state) const {
    return std::min(std::max(exit_time_, state.last_output) + kQuietAfterExit,
                    exit_time_ + kDrainCap);
  }

  // The next moment a decision in next() may change without any descriptor becoming ready.
  std::optional<TimePoint> next_decision(TimePoint now, const WatchState& state) const {
    std::optional<TimePoint> next;
    const auto consider = [&next](TimePoint when) {
      if (!next || when < *next) next = when;
    };
    if (state.exited) consider(drain_end(state));
    if (!state.exited && kill_time_) consider(*kill_time_ + kDrainCap);
    if (!state.exited && !kill_time_ && deadline_) consider(*deadline_);
    if (!state.exited && !kill_time_) consider(next_stop_check_);
    // Without a wake-up descriptor a stop is noticed by looking again shortly.
    if (!can_wake_) consider(now + kExitPollInterval);
    return next;
  }

  void kill(CommandEnd reason, TimePoint now) {
    kill_reason_ = reason;
    kill_time_ = now;
    kill_process_tree(process_.pid, tag_entry_);
  }

  // Sends SIGCONT to each process of the shell's tree that was stopped at the last check and
  // still is: a stopped shell, or a stopped child it waits for, would never go on.
  void resume_long_stopped() {
    const std::vector<ProcessInfo> processes = scan_processes();
    const std::vector<pid_t> descendants = collect_descendants(processes, {process_.pid});
    std::unordered_set<pid_t> tree(descendants.begin(), descendants.end());
    tree.insert(process_.pid);
    std::vector<std::pair<pid_t, std::uint64_t>> stopped;
    for (const ProcessInfo& info : processes) {
      if (info.state != 'T' || !tree.contains(info.pid)) continue;
      const auto key = std::make_pair(info.pid, info.start_time);
      if (std::find(stopped_before_.begin(), stopped_before_.end(), key) != stopped_before_.end()) {
        ::kill(info.pid, SIGCONT);
        ++result_.resumed_stops;
      } else {
        stopped.push_back(key);
      }
    }
    stopped_before_ = std::move(stopped);
  }

  // The killed process has not exited (stuck in the kernel): stop waiting, and let the
  // adopted-zombie reaper collect it whenever it does.
  void give_up() {
    release_registered(process_.pid);
    add_note(result_.error, "the process did not exit within " +
                                std::to_string(std::chrono::milliseconds(kDrainCap).count()) +
                                " ms of being killed");
  }

  SpawnedProcess& process_;
  CommandResult& result_;
  const std::string tag_entry_;  // "NIB_COMMAND_ID=<tag>"
  const std::optional<TimePoint> deadline_;
  const std::stop_token stop_;
  TimePoint exit_time_{};
  std::optional<TimePoint> kill_time_;
  std::optional<CommandEnd> kill_reason_;
  TimePoint next_stop_check_;
  // Processes of the tree seen stopped at the last check (pid and start time).
  std::vector<std::pair<pid_t, std::uint64_t>> stopped_before_;
  const MoveEnrolment* movable_;  // null: the command cannot be moved
  // Told each piece of output as it arrives (CommandRequest::on_output); may be empty.
  const std::function<void(std::string_view)>& watcher_;
  bool moving_ = false;
  bool can_wake_ = true;  // a stop wakes the watch (its eventfd could be made)
  ChildWatch watch_;
};

}  // namespace

CommandResult run_command(const CommandRequest& request, std::stop_token stop) {
  CommandResult result{.stdout_capture = OutputCapture(request.stdout_log),
                       .stderr_capture = OutputCapture(request.stderr_log)};
  if (stop.stop_requested()) {
    result.end = CommandEnd::kAborted;
    return result;
  }
  const auto deadline =
      request.timeout
          ? std::optional(request.clock->now() + std::chrono::duration_cast<TimePoint::duration>(
                                                     std::min(*request.timeout, kMaxTimeout)))
          : std::nullopt;
  BackgroundHandoff* const jobs = request.movable_to;
  std::optional<CommandRequest> on_spawn_thread;
  if (jobs != nullptr && request.spawn_thread == nullptr) {
    on_spawn_thread = request;
    on_spawn_thread->spawn_thread = &jobs->spawn_thread();
  }
  // Enrolled before the shell starts, so a request can never miss a command that has printed.
  const std::unique_ptr<MoveEnrolment> movable =
      jobs != nullptr ? jobs->enroll(request.command, std::chrono::steady_clock::now()) : nullptr;
  auto started = start_command(on_spawn_thread ? *on_spawn_thread : request);
  if (!started.ok()) {
    result.error = started.error();
    return result;
  }
  StartedCommand& command = started.value();
  result.pid = command.process.pid;
  CommandWaiter waiter(command.process, result, command.tag_entry(), *request.clock, deadline,
                       std::move(stop), movable.get(), request.on_output);
  while (true) {
    waiter.run();
    if (!waiter.moving()) break;
    auto job = jobs->adopt(*movable, command);
    if (job.ok()) {
      // The job owns the command now: its tree, its entry and the rest of its output.
      result.end = CommandEnd::kMovedToBackground;
      result.job_id = job.value().job_id;
      result.job_log = job.value().log;
      return result;
    }
    add_note(result.error, "it could not be moved into the background (" + job.error() +
                               "), so it went on in the foreground");
    waiter.stay();
  }
  finish_command(command, waiter.killed());
  return result;
}

}  // namespace nib::process
