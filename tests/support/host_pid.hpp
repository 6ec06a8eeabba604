#pragma once
// For end-to-end tests whose command reports its pid ($$ or $!): inside the sandbox that is a
// pid of the sandbox's own pid namespace, not the host's. host_pid_in() finds the host's pid of
// the living process that saw itself as `shown`, by its working directory (each test's own
// temp dir) and its NSpid; `shown` itself when the command ran unconfined. Call it while the
// process lives. Not thread-safe (reads /proc).

#include <sys/types.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace nib::testing {

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
