// first_frame_bench: how long `nib` takes from being started in a terminal to showing its
// interactive screen (the footer drawn), and then to leaving on Ctrl-D. Each run starts the
// real binary on a fresh pseudo-terminal (forkpty), as a shell would. Prints the figures and one
// "summary<TAB>metric<TAB>value<TAB>target<TAB>verdict" line each for bench/run; not a test.
//
// Usage: first_frame_bench NIB [RUNS]

#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// nib's target: a session is ready before a person notices it starting.
constexpr double kFirstFrameTargetMs = 20.0;
// A nib that shows nothing for this long is hung, not slow.
constexpr int kHangLimitMs = 10'000;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Reads from `fd` until `text` has appeared; false on timeout or end of output.
bool read_until(int fd, const std::string& text) {
  std::string seen;
  char buffer[65536];
  while (seen.find(text) == std::string::npos) {
    pollfd ready{fd, POLLIN, 0};
    if (poll(&ready, 1, kHangLimitMs) <= 0) return false;
    const ssize_t got = read(fd, buffer, sizeof buffer);
    if (got <= 0) return false;
    seen.append(buffer, static_cast<std::size_t>(got));
  }
  return true;
}

void drain(int fd) {
  char buffer[65536];
  while (read(fd, buffer, sizeof buffer) > 0) {
  }
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double p90(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[(values.size() * 9 + 9) / 10 - 1];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: first_frame_bench NIB [RUNS]\n");
    return 2;
  }
  const std::string nib = argv[1];
  const int runs = argc > 2 ? std::atoi(argv[2]) : 30;
  // A model that is never asked: the session only starts and quits.
  setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1", 1);
  setenv("NIB_MODEL", "bench-model", 1);
  setenv("TERM", "xterm-256color", 1);

  std::vector<double> first_frame, quit;
  for (int run = 0; run < runs; ++run) {
    const auto start = Clock::now();
    int terminal = -1;
    winsize size{40, 120, 0, 0};
    const pid_t pid = forkpty(&terminal, nullptr, nullptr, &size);
    if (pid == 0) {
      execl(nib.c_str(), nib.c_str(), "--no-session", static_cast<char*>(nullptr));
      _exit(127);
    }
    if (pid < 0 || !read_until(terminal, "bench-model")) {
      std::fprintf(stderr, "first_frame_bench: nib did not show its screen\n");
      return 1;
    }
    first_frame.push_back(ms_since(start));
    const auto quitting = Clock::now();
    [[maybe_unused]] const ssize_t sent = write(terminal, "\x04", 1);
    drain(terminal);
    int status = 0;
    waitpid(pid, &status, 0);
    quit.push_back(ms_since(quitting));
    close(terminal);
  }
  const double ready = median(first_frame);
  std::printf("interactive start to first frame: median %.1f ms, p90 %.1f ms (%d runs)\n", ready,
              p90(first_frame), runs);
  std::printf("Ctrl-D to exit: median %.1f ms, p90 %.1f ms\n", median(quit), p90(quit));
  std::printf("summary\tinteractive start to first frame\t%.1f ms\t< %.0f ms\t%s\n", ready,
              kFirstFrameTargetMs, ready < kFirstFrameTargetMs ? "ok" : "MISSED");
  std::printf("summary\tinteractive Ctrl-D to exit\t%.1f ms\t-\t-\n", median(quit));
  return 0;
}
