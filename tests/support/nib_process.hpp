#pragma once
// Runs the real `nib` binary for end-to-end tests: arguments, a controlled environment and
// working directory, stdout/stderr captured on reader threads, signals on demand. The test can
// wait for a piece of output to appear (e.g. a "tool_running" event) before acting.
// Thread-safe accessors; one owner drives the process.

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace nib::testing {

struct NibResult {
  int exit_code = -1;  // the exit status, or 128 + signal when killed by one
  std::string out;
  std::string err;
  long peak_rss_kb = 0;  // ru_maxrss from wait4: the process's (or a waited-for child's) peak
  double cpu_ms = 0;     // user + system time from wait4, the process's own and its children's
};

class NibProcess {
 public:
  // Starts `NIB_BINARY args...` (or `binary args...` when `binary` is given) in `cwd`. The
  // environment holds only PATH, HOME (`cwd`, unless `env` names another) and `env`, so a
  // developer's own keys and settings never leak into a test. With `pipe_stdin` the test
  // writes its stdin (write_stdin, close_stdin); else it is /dev/null.
  NibProcess(const std::vector<std::string>& args, const std::filesystem::path& cwd,
             const std::map<std::string, std::string>& env = {},
             const std::filesystem::path& binary = {}, bool pipe_stdin = false);
  // Kills the process if it is still running.
  ~NibProcess();
  NibProcess(const NibProcess&) = delete;
  NibProcess& operator=(const NibProcess&) = delete;

  pid_t pid() const { return pid_; }
  // Writes `text` to its stdin (pipe_stdin only); false when it cannot.
  bool write_stdin(const std::string& text);
  void close_stdin();
  void send_signal(int signal_number);
  // What it has printed on stdout so far.
  std::string stdout_so_far() const;
  // Blocks until stdout contains `text`; false if the process ended without printing it.
  bool wait_for_stdout(const std::string& text);
  // Waits for the exit and returns everything it printed.
  NibResult wait();
  // When the byte at `offset` of stdout was read from the pipe (steady clock), or nullopt if it
  // has not arrived yet: lets benchmarks time events nib prints.
  std::optional<std::chrono::steady_clock::time_point> stdout_arrival(std::size_t offset) const;

 private:
  struct Arrival {
    std::size_t end = 0;  // stdout size after this read
    std::chrono::steady_clock::time_point at;
  };
  void read_stream(int fd, std::string& into, std::vector<Arrival>* arrivals);

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::string out_, err_;
  std::vector<Arrival> out_arrivals_;  // one per read, in order
  int streams_open_ = 2;
  std::thread out_reader_, err_reader_;
  bool waited_ = false;
  NibResult result_;
};

// Runs nib to completion.
NibResult run_nib(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                  const std::map<std::string, std::string>& env = {});

}  // namespace nib::testing
