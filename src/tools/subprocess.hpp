#pragma once
// Starting a command the way an agent needs it: in a new session and process group (no
// controlling terminal, one group to kill), stdin from /dev/null, stdout and stderr each on
// its own pipe, every other descriptor closed, signal mask and dispositions reset, in a given
// directory and environment. posix_spawn (glibc's clone-based implementation) is safe in a
// multi-threaded process, which fork-then-run-code is not.
// Thread-safe: spawn_process may be called from several threads at once.

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tools/unique_fd.hpp"

namespace nib::tools {

using EnvironmentOverrides = std::vector<std::pair<std::string, std::string>>;

// Variables that make a command's tools behave without a person at a terminal (see the
// definition for the reason of each). The caller's own marker (NIB=1) is among them.
const EnvironmentOverrides& non_interactive_environment();

// `base` ("NAME=value" entries, null-terminated like environ) with `overrides` replacing
// entries of the same name or added at the end.
std::vector<std::string> merge_environment(const char* const* base,
                                           const EnvironmentOverrides& overrides);

struct SpawnRequest {
  std::vector<std::string> argv;  // argv[0] is the program's absolute path
  std::filesystem::path cwd;
  std::vector<std::string> environment;  // complete, "NAME=value" entries
  bool open_pidfd = true;  // false behaves like a kernel without pidfds (tests the fallback)
};

struct SpawnedProcess {
  pid_t pid = -1;      // also the id of its session and process group; -1 when not started
  UniqueFd stdout_fd;  // read ends of the pipes, non-blocking and close-on-exec
  UniqueFd stderr_fd;
  UniqueFd pidfd;     // readable once the process exits; invalid when the kernel lacks pidfds
  std::string error;  // why the process could not be started
};

// Starts the process, registered with the process reaper (spawn_registered): the caller must
// reap it with reap_registered or hand it over with release_registered.
SpawnedProcess spawn_process(const SpawnRequest& request);

}  // namespace nib::tools
