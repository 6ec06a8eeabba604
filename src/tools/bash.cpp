#include "tools/bash.hpp"

#include <algorithm>
#include <functional>
#include <string_view>
#include <system_error>

#include "process/command_runner.hpp"
#include "process/subprocess.hpp"
#include "tools/command_report.hpp"
#include "tools/job_report.hpp"
#include "tools/job_tools.hpp"
#include "tools/limits.hpp"
#include "tools/os_argument.hpp"
#include "util/blank_text.hpp"

namespace nib::tools {
namespace {

// Hands the command's output to the run as it arrives (core::ToolOutputEvent), for front ends
// that show it live, up to kMaxLiveOutputBytes; the rest reaches them with the result. Called
// on the command runner's thread only.
std::function<void(std::string_view)> live_output(const core::ToolContext& context) {
  return [report = context.report, id = context.tool_call_id,
          left = kMaxLiveOutputBytes](std::string_view bytes) mutable {
    if (left == 0 || bytes.empty()) return;
    const std::string_view shown = bytes.substr(0, std::min(bytes.size(), left));
    left -= shown.size();
    report(core::ToolOutputEvent{id, std::string(shown)});
  };
}

bool blank(std::string_view text) {
  return util::trim_blanks(text).empty();
}

std::string background_description() {
  return "\n- run_in_background: true starts a job and returns at once with its id and log: for "
         "servers, watchers and long builds. job_output reads its output (and can wait), "
         "job_kill ends it; you are told when it finishes.";
}

// Only what changes how the model calls the tool: the output digest, the environment variables
// and the drain after exit are left to the results, which explain themselves.
std::string describe(const process::CommandLauncher* launcher, bool background) {
  return "Run a command with bash -c in the working directory; returns its output and exit "
         "status.\n"
         "- Every call is a fresh shell: cd and variables do not carry over; chain with &&.\n"
         "- Non-interactive: stdin is /dev/null, no terminal, editors and pagers disabled; pass "
         "-y, -m \"msg\" and the like.\n"
         "- Output is shown whole up to " +
         std::to_string(process::kMaxOutputLines) + " lines and " +
         std::to_string(process::kMaxOutputBytes / 1024) +
         " KB; longer output becomes a digest (first and last lines, excerpts around errors, "
         "numbered as in the log) and a note names a log holding it all (its first " +
         std::to_string(process::kMaxLogBytes / (1024 * 1024)) +
         " MiB): read the log with offset (a line number) and limit, or grep it. Prefer "
         "narrowing output yourself (grep, head, tail, -q).\n"
         "- timeout: seconds, then the command and its processes are killed. There is none by "
         "default: set one for anything that may hang.\n"
         "- Background processes (cmd &) outlive the call, until nib exits; redirect their "
         "output to a file (cmd > log 2>&1 &), or it is lost." +
         (launcher != nullptr ? "\n- Sandbox: " + launcher->describe() : std::string()) +
         (background ? background_description() : "");
}

// The parameters are described in the tool's description, not here, so that nothing is said
// twice (the sandbox's part says what network, unsandboxed and justification are for).
nlohmann::json parameters(bool background) {
  nlohmann::json schema = {
      {"type", "object"},
      {"properties",
       {{"command", {{"type", "string"}}},
        {"timeout", {{"type", "number"}, {"exclusiveMinimum", 0}}},
        {"network", {{"type", "boolean"}}},
        {"unsandboxed", {{"type", "boolean"}}},
        {"justification", {{"type", "string"}}}}},
      {"required", {"command"}},
  };
  if (background) schema["properties"]["run_in_background"] = {{"type", "boolean"}};
  return schema;
}

class BashTool final : public core::Tool {
 public:
  explicit BashTool(BashToolOptions options)
      : core::Tool({"bash", describe(options.launcher.get(), options.jobs != nullptr),
                    parameters(options.jobs != nullptr),
                    /*concurrency_safe=*/false, core::AccessKind::kExecute}),
        options_(std::move(options)) {}

  core::ToolOutput execute(const nlohmann::json& args, std::stop_token stop,
                           const core::ToolContext& context) override {
    if (auto refusal = nul_refusal(args, {"command"}))
      return core::ToolOutput::error("Error: " + *refusal);
    const std::string command = args.value("command", "");
    if (blank(command)) {
      return core::ToolOutput::error("Error: command is empty. Pass the shell command to run.");
    }
    std::optional<double> timeout;
    if (const auto found = args.find("timeout"); found != args.end() && found->is_number()) {
      timeout = found->get<double>();
      if (!(*timeout > 0)) {
        return core::ToolOutput::error("Error: timeout must be a number of seconds above 0.");
      }
    }
    const process::LaunchMode mode = launch_mode(args);
    const bool network = mode.network;
    const bool unsandboxed = mode.unsandboxed;
    if ((network || unsandboxed) && blank(args.value("justification", ""))) {
      return core::ToolOutput::error(
          std::string("Error: \"") + (unsandboxed ? "unsandboxed" : "network") +
          "\": true needs a \"justification\": say in one sentence why the command needs it.");
    }
    std::error_code error;
    if (!std::filesystem::is_directory(context.cwd, error)) {
      return core::ToolOutput::error("Error: the working directory " + context.cwd.string() +
                                     " does not exist or is not a directory, so the command "
                                     "could not start.");
    }
    process::CommandRequest request{
        .command = command,
        .cwd = context.cwd,
        .timeout = timeout ? std::optional(std::chrono::duration<double>(*timeout)) : std::nullopt,
        .environment = process::non_interactive_environment(),
        .withheld_environment = options_.withheld_environment,
        .call_id = context.tool_call_id,
        .stdout_log = [this] { return options_.create_log("bash-stdout"); },
        .stderr_log = [this] { return options_.create_log("bash-stderr"); },
        // As judged (context.access): a command approved to run outside runs outside, and one
        // judged confined is never run any other way.
        .launcher = core::is_confined(judged_confinement(command, mode, context))
                        ? options_.launcher.get()
                        : nullptr,
        .launch_mode = mode,
        .movable_to = options_.jobs.get(),
    };
    if (context.report) request.on_output = live_output(context);
    if (args.value("run_in_background", false)) {
      if (timeout) {
        return core::ToolOutput::error(
            "Error: timeout does not apply to a background job. Start it without timeout and "
            "end it with job_kill when it is no longer needed.");
      }
      return start_job(std::move(request));
    }
    process::CommandResult result = process::run_command(request, std::move(stop));
    core::ToolOutput reply = report_command(result, {.timeout_seconds = timeout});
    if (result.end == process::CommandEnd::kMovedToBackground) {
      const process::JobSnapshot job{.id = result.job_id, .pid = result.pid, .log = result.job_log};
      reply.output = job_started_text(job, JobOrigin::kMovedByUser) + "\n" + reply.output;
    }
    return reply;
  }

  // The command and how the launcher will run it, which is how it then runs.
  core::CallAccess access(const nlohmann::json& args,
                          const core::ToolContext& /*context*/) const override {
    core::CommandAccess command;
    if (const auto text = args.find("command"); text != args.end() && text->is_string()) {
      command.command = text->get<std::string>();
    }
    const process::LaunchMode mode = launch_mode(args);
    command.network = mode.network;
    if (const auto why = args.find("justification"); why != args.end() && why->is_string()) {
      command.justification = why->get<std::string>();
    }
    command.confinement = confinement(command.command, mode);
    if (command.confinement == core::Confinement::kUnconfinedUnavailable) {
      command.unavailable = options_.launcher->unavailable();
    }
    core::CallAccess access;
    access.command = std::move(command);
    return access;
  }

  std::string describe_call(const nlohmann::json& args) const override {
    const auto command = args.find("command");
    return command != args.end() && command->is_string() ? command->get<std::string>() : "";
  }

 private:
  static process::LaunchMode launch_mode(const nlohmann::json& args) {
    const auto flag = [&](const char* name) {
      const auto found = args.find(name);
      return found != args.end() && found->is_boolean() && found->get<bool>();
    };
    return {.network = flag("network"), .unsandboxed = flag("unsandboxed")};
  }

  // How the launcher runs `command`; with none, outside the sandbox as the embedder chose,
  // unless the call asked to leave it.
  core::Confinement confinement(std::string_view command, process::LaunchMode mode) const {
    if (options_.launcher) return options_.launcher->confinement(command, mode);
    return mode.unsandboxed ? core::Confinement::kUnconfinedAsked
                            : core::Confinement::kUnconfinedByUser;
  }

  // How the call was judged to run, or (execute() called directly) how it would run now.
  core::Confinement judged_confinement(std::string_view command, process::LaunchMode mode,
                                       const core::ToolContext& context) const {
    if (context.access && context.access->command) return context.access->command->confinement;
    return confinement(command, mode);
  }

  core::ToolOutput start_job(process::CommandRequest request) const {
    if (!options_.jobs) {
      return core::ToolOutput::error(
          "Error: background jobs are not available here; run the command without "
          "run_in_background.");
    }
    auto started = options_.jobs->start(std::move(request));
    if (!started.ok()) {
      std::string text = "Error: " + started.error();
      if (options_.jobs->running() >= process::kMaxRunningJobs) {
        std::vector<process::JobSnapshot> running = options_.jobs->list();
        std::erase_if(running, [](const process::JobSnapshot& job) {
          return job.status.end != process::JobEnd::kRunning;
        });
        text += ". End one you no longer need with job_kill, then start this one again.\n" +
                describe_job_list(running);
      }
      return core::ToolOutput::error(text);
    }
    return core::ToolOutput{job_started_text(started.value())};
  }

  const BashToolOptions options_;
};

}  // namespace

core::ToolPtr make_bash_tool(BashToolOptions options) {
  return std::make_shared<BashTool>(std::move(options));
}

}  // namespace nib::tools
