#include "workspace/git_paths.hpp"

#include <chrono>
#include <string>

#include "process/command_runner.hpp"

namespace nib::workspace {
namespace {

namespace fs = std::filesystem;

// git answers these in milliseconds; the limit only keeps a git stuck on a dead network file
// system from holding the first sandboxed command for ever.
constexpr std::chrono::seconds kGitQueryTimeout{5};

util::Result<process::LogFile> no_log() {
  return util::Result<process::LogFile>::failure("git's answer is read whole, never logged");
}

// git's stdout for `command` run in `directory`, or nothing when it did not exit with 0.
std::optional<std::string> git_output(const fs::path& directory, const std::string& command,
                                      std::optional<std::string> input = std::nullopt) {
  const process::CommandResult result =
      process::run_command({.command = command,
                            .shell = "/bin/sh",
                            .stdin_text = std::move(input),
                            .cwd = directory,
                            .timeout = kGitQueryTimeout,
                            .withheld_environment = {"GIT_DIR", "GIT_WORK_TREE"},
                            .call_id = "sandbox",
                            .stdout_log = no_log,
                            .stderr_log = no_log},
                           {});
  if (result.end != process::CommandEnd::kExited || result.exit_code != 0 ||
      !result.stdout_capture.complete()) {
    return std::nullopt;
  }
  return result.stdout_capture.tail();
}

}  // namespace

std::optional<GitRepositoryPaths> git_repository_paths(const fs::path& directory) {
  const auto output = git_output(
      directory, "exec git rev-parse --path-format=absolute --git-path hooks --git-path config");
  if (!output) return std::nullopt;
  const std::size_t newline = output->find('\n');
  if (newline == std::string::npos || output->size() < newline + 2 || output->back() != '\n') {
    return std::nullopt;
  }
  return GitRepositoryPaths{.hooks = output->substr(0, newline),
                            .config = output->substr(newline + 1, output->size() - newline - 2)};
}

std::vector<fs::path> git_ignored(const fs::path& tree, const std::vector<fs::path>& paths) {
  if (paths.empty()) return {};  // no need to start git
  std::string input;
  for (const fs::path& path : paths) {
    input += path.string();
    input += '\0';
  }
  // Exit status 1 means none is ignored; -z: NUL-separated both ways.
  const auto output = git_output(tree, "git check-ignore -z --stdin; test $? -le 1", input);
  std::vector<fs::path> ignored;
  if (!output) return ignored;
  std::size_t start = 0;
  for (std::size_t end = output->find('\0'); end != std::string::npos;
       start = end + 1, end = output->find('\0', start)) {
    ignored.emplace_back(output->substr(start, end - start));
  }
  return ignored;
}

}  // namespace nib::workspace
