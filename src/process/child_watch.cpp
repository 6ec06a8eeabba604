#include "process/child_watch.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <span>

#include "process/process_reaper.hpp"

namespace nib::process {

ChildWatch::ChildWatch(const SpawnedProcess& child, std::vector<int> pipes, core::Clock& clock,
                       std::size_t chunk_bytes)
    : child_(child), clock_(clock), buffer_(chunk_bytes) {
  for (const int fd : pipes) pipes_.push_back({fd, fd >= 0});
  update_output_open();
}

void ChildWatch::add_wake_fd(int fd) {
  if (fd >= 0) wake_fds_.push_back(fd);
}

void ChildWatch::remove_wake_fd(int fd) {
  std::erase(wake_fds_, fd);
}

void ChildWatch::run(WatchPolicy& policy) {
  std::vector<pollfd> fds;
  std::vector<std::size_t> pipe_of;  // for each entry of fds: its pipe, or npos
  constexpr std::size_t kNotAPipe = static_cast<std::size_t>(-1);
  while (true) {
    const TimePoint now = clock_.now();
    if (!state_.exited && !child_.pidfd.valid()) check_exit(policy, now);
    const WatchPolicy::Next next = policy.next(now, state_);
    if (next.done) return;
    std::optional<TimePoint> deadline = next.wake_at;
    if (!state_.exited && !child_.pidfd.valid()) {
      deadline = std::min(deadline.value_or(TimePoint::max()), now + kExitPollInterval);
    }

    fds.clear();
    pipe_of.clear();
    for (std::size_t i = 0; i < pipes_.size(); ++i) {
      if (!pipes_[i].open) continue;
      fds.push_back({pipes_[i].fd, POLLIN, 0});
      pipe_of.push_back(i);
    }
    const std::size_t first_other = fds.size();
    if (!state_.exited && child_.pidfd.valid()) fds.push_back({child_.pidfd.get(), POLLIN, 0});
    for (const int fd : wake_fds_) fds.push_back({fd, POLLIN, 0});
    pipe_of.resize(fds.size(), kNotAPipe);

    const int ready = clock_.poll_until(std::span(fds), deadline);
    if (ready < 0 && errno != EINTR) {
      // Not a signal: do not spin on a failing poll; look again after a short while.
      clock_.poll_until({}, now + kExitPollInterval);
      continue;
    }
    if (ready <= 0) continue;  // the deadline, or a signal: ask the policy again
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      if (i < first_other) {
        read_once(pipe_of[i], policy);
      } else if (!state_.exited && child_.pidfd.valid() && fds[i].fd == child_.pidfd.get()) {
        check_exit(policy, clock_.now());
      } else {
        std::uint64_t counter = 0;
        [[maybe_unused]] const auto got = ::read(fds[i].fd, &counter, sizeof counter);
        policy.on_wake(fds[i].fd);
      }
    }
  }
}

void ChildWatch::read_available(WatchPolicy& policy, std::uint64_t cap) {
  for (std::size_t i = 0; i < pipes_.size(); ++i) {
    std::uint64_t taken = 0;
    while (pipes_[i].open && taken < cap) {
      const std::size_t got = read_once(i, policy);
      if (got == 0) break;
      taken += got;
    }
  }
}

bool ChildWatch::wait_for_exit(WatchPolicy& policy, TimePoint deadline) {
  while (!state_.exited) {
    const TimePoint now = clock_.now();
    check_exit(policy, now);
    if (state_.exited) break;
    if (now >= deadline) return false;
    pollfd exit_fd{child_.pidfd.get(), POLLIN, 0};
    // Without a pidfd there is nothing to wait on: look again shortly.
    clock_.poll_until(
        child_.pidfd.valid() ? std::span(&exit_fd, 1) : std::span<pollfd>(),
        child_.pidfd.valid() ? deadline : std::min(deadline, now + kExitPollInterval));
  }
  return true;
}

void ChildWatch::check_exit(WatchPolicy& policy, TimePoint now) {
  int status = 0;
  ChildExit exit;
  switch (reap_registered(child_.pid, &status)) {
    case ReapStatus::kRunning:
      return;
    case ReapStatus::kReaped:
      exit.wait_status = reported_wait_status(child_, status);
      break;
    case ReapStatus::kLost:
      exit.status_known = false;
      break;
  }
  state_.exited = true;
  policy.on_exit(exit, now);
}

std::size_t ChildWatch::read_once(std::size_t index, WatchPolicy& policy) {
  Pipe& pipe = pipes_[index];
  const ssize_t got = ::read(pipe.fd, buffer_.data(), buffer_.size());
  if (got > 0) {
    state_.last_output = clock_.now();
    policy.on_output(index, std::string_view(buffer_.data(), static_cast<std::size_t>(got)));
    return static_cast<std::size_t>(got);
  }
  if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
    pipe.open = false;
    update_output_open();
    policy.on_end(index);
  }
  return 0;
}

void ChildWatch::update_output_open() {
  state_.output_open =
      std::any_of(pipes_.begin(), pipes_.end(), [](const Pipe& pipe) { return pipe.open; });
}

}  // namespace nib::process
