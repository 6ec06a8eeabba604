#include "support/nib_process.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#ifndef NIB_BINARY
#error "NIB_BINARY must name the nib executable"
#endif

#include "support/spawn.hpp"

namespace nib::testing {

NibProcess::NibProcess(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                       const std::map<std::string, std::string>& env,
                       const std::filesystem::path& binary, bool pipe_stdin) {
  std::vector<std::string> argv{binary.empty() ? std::string(NIB_BINARY) : binary.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> environment{"PATH=" + std::string(std::getenv("PATH"))};
  if (!env.contains("HOME")) environment.push_back("HOME=" + cwd.string());
  for (const auto& [name, value] : env) environment.push_back(name + "=" + value);
  const SpawnedProcess process = spawn_with_pipes(argv, environment, cwd, pipe_stdin);
  pid_ = process.pid;
  stdin_fd_ = process.in_fd;
  out_reader_ = std::thread([this, fd = process.out_fd] { read_stream(fd, out_, &out_arrivals_); });
  err_reader_ = std::thread([this, fd = process.err_fd] { read_stream(fd, err_, nullptr); });
}

bool NibProcess::write_stdin(const std::string& text) {
  std::size_t written = 0;
  while (stdin_fd_ >= 0 && written < text.size()) {
    const ssize_t n = write(stdin_fd_, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return stdin_fd_ >= 0;
}

void NibProcess::close_stdin() {
  if (stdin_fd_ >= 0) close(std::exchange(stdin_fd_, -1));
}

NibProcess::~NibProcess() {
  close_stdin();
  if (!waited_) {
    kill(pid_, SIGKILL);
    wait();
  }
}

void NibProcess::read_stream(int fd, std::string& into, std::vector<Arrival>* arrivals) {
  char buffer[65536];
  while (true) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    std::lock_guard lock(mutex_);
    if (n <= 0) {
      --streams_open_;
      changed_.notify_all();
      break;
    }
    into.append(buffer, static_cast<std::size_t>(n));
    if (arrivals) arrivals->push_back({into.size(), std::chrono::steady_clock::now()});
    changed_.notify_all();
  }
  close(fd);
}

void NibProcess::send_signal(int signal_number) {
  kill(pid_, signal_number);
}

bool NibProcess::wait_for_stdout(const std::string& text) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return out_.find(text) != std::string::npos || streams_open_ == 0; });
  return out_.find(text) != std::string::npos;
}

NibResult NibProcess::wait() {
  if (waited_) return result_;
  int status = 0;
  struct rusage usage {};
  while (wait4(pid_, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  out_reader_.join();
  err_reader_.join();
  waited_ = true;
  std::lock_guard lock(mutex_);
  result_.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result_.out = out_;
  result_.err = err_;
  result_.peak_rss_kb = usage.ru_maxrss;
  const auto ms = [](const timeval& time) {
    return static_cast<double>(time.tv_sec) * 1e3 + static_cast<double>(time.tv_usec) / 1e3;
  };
  result_.cpu_ms = ms(usage.ru_utime) + ms(usage.ru_stime);
  return result_;
}

std::string NibProcess::stdout_so_far() const {
  std::lock_guard lock(mutex_);
  return out_;
}

std::optional<std::chrono::steady_clock::time_point> NibProcess::stdout_arrival(
    std::size_t offset) const {
  std::lock_guard lock(mutex_);
  const auto arrival =
      std::upper_bound(out_arrivals_.begin(), out_arrivals_.end(), offset,
                       [](std::size_t wanted, const Arrival& read) { return wanted < read.end; });
  if (arrival == out_arrivals_.end()) return std::nullopt;
  return arrival->at;
}

NibResult run_nib(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                  const std::map<std::string, std::string>& env) {
  return NibProcess(args, cwd, env).wait();
}

}  // namespace nib::testing
