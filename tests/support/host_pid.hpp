#pragma once
// For end-to-end tests whose command reports its pid ($$ or $!): inside the sandbox that is a
// pid of the sandbox's own pid namespace, not the host's. host_pid_in() finds the host's pid of
// the living process that saw itself as `shown`, by its working directory (each test's own
// temp dir) and its NSpid; `shown` itself when the command ran unconfined. Call it while the
// process lives. Not thread-safe (reads /proc).

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace nib::testing {

// The command line of `pid`, its arguments joined by spaces; empty once it has gone. Read with
// read(2): a process that exits mid-read fails the read with ESRCH, which an ifstream would
// throw as an exception.
inline std::string command_line_of(pid_t pid) {
  std::string line;
  const int fd =
      ::open(("/proc/" + std::to_string(pid) + "/cmdline").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return line;
  char buffer[4096];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;) line.append(buffer, got);
  ::close(fd);
  for (char& c : line) c = c == '\0' ? ' ' : c;
  return line;
}

inline pid_t host_pid_in(const std::filesystem::path& cwd, pid_t shown) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (std::filesystem::read_symlink(entry.path() / "cwd", error) != cwd) continue;
    std::ifstream status(entry.path() / "status");
    std::vector<pid_t> pids;
    for (std::string line; std::getline(status, line);) {
      if (!line.starts_with("NSpid:")) continue;
      std::istringstream fields(line.substr(6));
      for (pid_t value = 0; fields >> value;) pids.push_back(value);
    }
    if (pids.size() >= 2 && pids.back() == shown) return pids.front();
  }
  return shown;
}

}  // namespace nib::testing
