#pragma once
// Helpers for tests that start real processes: taking the process a spawn started, checking that
// a process or group is gone, gating on a FIFO instead of sleeping, and setting an environment
// variable for one scope.
// Not thread-safe (ScopedEnv changes the process environment).

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "process/subprocess.hpp"

namespace nib::testing {

// The process `spawned` holds; when it could not be started, a test failure with the reason and
// a process whose pid is -1.
inline process::SpawnedProcess started(util::Result<process::SpawnedProcess> spawned) {
  EXPECT_TRUE(spawned.ok()) << spawned.error();
  return spawned.ok() ? std::move(spawned.value()) : process::SpawnedProcess{};
}

// True when no process (not even a zombie) has this pid; for a group pass -pgid.
inline bool process_gone(pid_t pid) {
  return ::kill(pid, 0) == -1 && errno == ESRCH;
}

// Creates a FIFO at `path`; a command writing a line to it acts as a gate the test waits on.
inline void make_fifo(const std::filesystem::path& path) {
  ::mkfifo(path.c_str(), 0600);
}

// Reads the first line written to the FIFO at `path`. Only a hang guard bounds the wait
// (the command normally writes within milliseconds); empty on that guard or an error.
inline std::string read_fifo_line(const std::filesystem::path& path, int guard_ms = 30000) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return {};
  std::string line;
  char c = 0;
  while (true) {
    pollfd entry{fd, POLLIN, 0};
    if (::poll(&entry, 1, guard_ms) <= 0) break;
    const ssize_t got = ::read(fd, &c, 1);
    if (got < 0 && errno == EAGAIN) continue;
    if (got <= 0 || c == '\n') break;
    line += c;
  }
  ::close(fd);
  return line;
}

// Reads `count` lines written to the FIFO at `path` by any number of writers, which may come
// and go (the FIFO is held open for writing here too, so a writer's open never blocks and the
// last one closing is no end). Only a hang guard bounds the wait; fewer lines on that guard.
inline std::vector<std::string> read_fifo_lines(const std::filesystem::path& path,
                                                std::size_t count, int guard_ms = 30000) {
  std::vector<std::string> lines;
  const int fd = ::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return lines;
  std::string line;
  char buffer[4096];
  while (lines.size() < count) {
    pollfd entry{fd, POLLIN, 0};
    if (::poll(&entry, 1, guard_ms) <= 0) break;
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    for (ssize_t i = 0; i < got; ++i) {
      if (buffer[i] != '\n') {
        line += buffer[i];
      } else {
        lines.push_back(std::move(line));
        line.clear();
      }
    }
  }
  ::close(fd);
  return lines;
}

// Sets (or unsets, with nullopt) an environment variable and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace nib::testing
