#include "app/signals.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>

namespace nib::app {
namespace {

sigset_t watched_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGWINCH);
  return set;
}

}  // namespace

SignalWatcher::SignalWatcher(Handlers handlers) : handlers_(std::move(handlers)) {
  std::signal(SIGPIPE, SIG_IGN);
  const sigset_t set = watched_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  signal_fd_ = signalfd(-1, &set, SFD_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_CLOEXEC);
  thread_ = std::thread([this] { watch(); });
}

SignalWatcher::~SignalWatcher() {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = write(wake_fd_, &one, sizeof one);
  thread_.join();
  close(signal_fd_);
  close(wake_fd_);
}

void SignalWatcher::watch() {
  pollfd fds[2] = {{signal_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  while (true) {
    if (poll(fds, 2, -1) < 0) continue;  // EINTR
    if (fds[1].revents) return;
    signalfd_siginfo info;
    if (read(signal_fd_, &info, sizeof info) != sizeof info) continue;
    const int signal_number = static_cast<int>(info.ssi_signo);
    if (signal_number == SIGINT) {
      if (handlers_.on_interrupt) handlers_.on_interrupt();
    } else if (signal_number == SIGWINCH) {
      if (handlers_.on_resize) handlers_.on_resize();
    } else if (handlers_.on_terminate) {
      handlers_.on_terminate(signal_number);
    }
  }
}

}  // namespace nib::app
