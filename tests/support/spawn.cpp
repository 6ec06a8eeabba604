#include "support/spawn.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>

namespace nib::testing {

SpawnedProcess spawn_with_pipes(const std::vector<std::string>& argv_strings,
                                const std::vector<std::string>& environment,
                                const std::filesystem::path& cwd, bool pipe_stdin) {
  int out_pipe[2], err_pipe[2], in_pipe[2] = {-1, -1};
  if (pipe_stdin && pipe2(in_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    throw std::runtime_error("pipe failed");
  }
  std::vector<std::string> argv_storage = argv_strings, env_storage = environment;
  std::vector<char*> argv, envp;
  for (auto& arg : argv_storage) argv.push_back(arg.data());
  for (auto& entry : env_storage) envp.push_back(entry.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (pipe_stdin) {
    posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = -1;
  const int status = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (pipe_stdin) close(in_pipe[0]);
  if (status != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (pipe_stdin) close(in_pipe[1]);
    throw std::runtime_error("cannot start " + argv_strings.at(0));
  }
  return {pid, out_pipe[0], err_pipe[0], in_pipe[1]};
}

}  // namespace nib::testing
