#include "tools/command_start.hpp"

#include "tools/process_reaper.hpp"

namespace nib::tools {
namespace {

constexpr const char* kShell = "/bin/bash";

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
  const SpawnRequest spawn{
      .argv = {kShell, "-c", request.command},
      .cwd = request.cwd,
      .environment = merge_environment(environ, overrides, request.withheld_environment),
      .open_pidfd = request.use_pidfd,
      .merge_stderr = request.merge_stderr};
  auto spawned =
      request.spawn_thread != nullptr ? request.spawn_thread->spawn(spawn) : spawn_process(spawn);
  if (!spawned.ok()) {
    command_ended(started.entry, /*tree_killed=*/true);
    return util::Result<StartedCommand>::failure(spawned.error());
  }
  started.process = std::move(spawned.value());
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

}  // namespace nib::tools
