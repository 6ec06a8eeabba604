#include "process/command_start.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "process/process_reaper.hpp"
#include "util/fd_io.hpp"

namespace nib::process {
namespace {

// A memory file holding `text`, positioned at its start, for a command's stdin: unlike a pipe,
// it needs no writer alongside the command, whatever the size. Invalid when there is no text.
util::Result<UniqueFd> stdin_file(const std::optional<std::string>& text) {
  using Result = util::Result<UniqueFd>;
  if (!text) return UniqueFd();
  UniqueFd file(::memfd_create("nib-stdin", MFD_CLOEXEC));
  if (!file.valid()) {
    return Result::failure(std::string("cannot hold the input: ") + std::strerror(errno));
  }
  if (!util::write_all(file.get(), *text) || ::lseek(file.get(), 0, SEEK_SET) != 0) {
    return Result::failure(std::string("cannot write the input: ") + std::strerror(errno));
  }
  return file;
}

}  // namespace

std::string StartedCommand::tag_entry() const {
  return std::string(kCommandTagVariable) + "=" + tag;
}

util::Result<StartedCommand> start_command(const CommandRequest& request) {
  StartedCommand started;
  started.tag = new_command_tag();
  EnvironmentOverrides overrides = request.environment;
  overrides.emplace_back(kCommandTagVariable, started.tag);
  // Recorded before the shell starts, so that nothing it starts runs unrecorded.
  started.entry = register_command({.started_after = boot_time_ticks(),
                                    .tag = started.tag,
                                    .call_id = request.call_id,
                                    .command = request.command,
                                    .job_id = request.job_id});
  const auto failed = [&](const std::string& error) {
    command_ended(started.entry, /*tree_killed=*/true);
    return util::Result<StartedCommand>::failure(error);
  };
  auto input = stdin_file(request.stdin_text);
  if (!input.ok()) return failed(input.error());
  Launch launch{.request = {.argv = {request.shell.string(), "-c", request.command},
                            .cwd = request.cwd,
                            .environment =
                                merge_environment(environ, overrides, request.withheld_environment),
                            .open_pidfd = request.use_pidfd,
                            .merge_stderr = request.merge_stderr,
                            .stdin_fd = input.value().get()}};
  if (request.launcher != nullptr) {
    auto confined = request.launcher->launch(std::move(launch.request), request.launch_mode);
    if (!confined.ok()) return failed(confined.error());
    launch = std::move(confined.value());
  }
  const SpawnRequest& spawn = launch.request;
  auto spawned =
      request.spawn_thread != nullptr ? request.spawn_thread->spawn(spawn) : spawn_process(spawn);
  if (!spawned.ok()) return failed(spawned.error());
  started.process = std::move(spawned.value());
  started.process.exit_report = std::move(launch.exit_report);
  const auto info = read_process(started.process.pid);
  command_started(started.entry, started.process.pid, info ? info->start_time : 0);
  return started;
}

void finish_command(const StartedCommand& command, bool tree_gone) {
  command_ended(command.entry, tree_gone);
  // Background processes of earlier commands that have ended since are collected here, and
  // the entries of commands of which nothing runs any more are removed.
  const std::vector<ProcessInfo> processes = scan_processes();
  reap_adopted_zombies(processes);
  settle_ended_commands(processes);
}

}  // namespace nib::process
