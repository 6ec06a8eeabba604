#include "hooks/hook_runner.hpp"

#include <sstream>

#include "process/command_runner.hpp"

namespace nib::hooks {
namespace {

// Hooks' output is read whole and never shown as a long listing: there is no log to keep.
util::Result<process::LogFile> no_log() {
  return util::Result<process::LogFile>::failure("hook output is not logged");
}

std::string seconds_text(std::chrono::milliseconds duration) {
  std::ostringstream out;
  out << static_cast<double>(duration.count()) / 1000.0;
  return out.str();
}

}  // namespace

HookRun run_hook(const HookCommand& hook, const std::string& input, const HookRunSettings& settings,
                 std::stop_token stop) {
  HookRun run;
  if (!hook.unsupported.empty()) {
    run.error = hook.unsupported;
    return run;
  }
  const std::string project_dir = settings.project_dir.string();
  process::EnvironmentOverrides environment = {{"CLAUDE_PROJECT_DIR", project_dir},
                                               {"NIB_PROJECT_DIR", project_dir}};
  environment.insert(environment.end(), hook.environment.begin(), hook.environment.end());
  process::CommandRequest request{
      .command = hook.command,
      .shell = "/bin/sh",
      .stdin_text = input,
      .cwd = settings.cwd,
      .timeout = std::chrono::duration<double>(hook.timeout),
      .environment = std::move(environment),
      .withheld_environment = settings.withheld_environment,
      .call_id = "hook",
      .stdout_log = no_log,
      .stderr_log = no_log,
      .clock = settings.clock,
  };
  const auto started = settings.clock->now();
  process::CommandResult result = process::run_command(request, std::move(stop));
  run.duration =
      std::chrono::duration_cast<std::chrono::milliseconds>(settings.clock->now() - started);
  run.stdout_text = result.stdout_capture.tail();
  run.stdout_complete = result.stdout_capture.complete();
  run.stderr_text = result.stderr_capture.tail();
  run.exit_code = result.exit_code;
  run.signal = result.signal;
  switch (result.end) {
    case process::CommandEnd::kExited:
      run.end = HookRun::End::kExited;
      break;
    case process::CommandEnd::kSignaled:
      run.end = HookRun::End::kSignaled;
      break;
    case process::CommandEnd::kTimedOut:
      run.end = HookRun::End::kTimedOut;
      break;
    case process::CommandEnd::kAborted:
      run.end = HookRun::End::kAborted;
      break;
    case process::CommandEnd::kNoStatus:
      run.end = HookRun::End::kNotStarted;
      run.error = "its exit status was lost";
      break;
    case process::CommandEnd::kMovedToBackground:  // never: a hook's command cannot be moved
    case process::CommandEnd::kNotStarted:
      run.end = HookRun::End::kNotStarted;
      run.error = result.error;
      break;
  }
  return run;
}

std::string describe_end(const HookRun& run, const HookCommand& hook) {
  switch (run.end) {
    case HookRun::End::kExited:
      return "exit " + std::to_string(run.exit_code);
    case HookRun::End::kSignaled:
      return "killed by signal " + std::to_string(run.signal);
    case HookRun::End::kTimedOut:
      return "timed out after " + seconds_text(hook.timeout) + " s";
    case HookRun::End::kAborted:
      return "aborted";
    case HookRun::End::kNotStarted:
      break;
  }
  return "could not be started (" + run.error + ")";
}

}  // namespace nib::hooks
