#pragma once
// Starting a child process for a test: stdin /dev/null, stdout and stderr on pipes, no signal
// blocked (a test thread's mask must not stick to the child). Thread-safe.

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace nib::testing {

struct SpawnedProcess {
  pid_t pid = -1;
  int out_fd = -1;  // read ends, owned by the caller
  int err_fd = -1;
  int in_fd = -1;  // with pipe_stdin: the write end of its stdin, owned by the caller
};

// Starts `argv` (argv[0] looked up on PATH when it has no '/') with exactly `environment`
// ("NAME=value" entries), in `cwd` (empty: the test's own), its stdin a pipe the caller writes
// (`pipe_stdin`) or /dev/null. Throws std::runtime_error when it cannot be started.
SpawnedProcess spawn_with_pipes(const std::vector<std::string>& argv,
                                const std::vector<std::string>& environment,
                                const std::filesystem::path& cwd = {}, bool pipe_stdin = false);

}  // namespace nib::testing
