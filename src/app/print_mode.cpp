#include "app/print_mode.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <iterator>

#include "app/hook_setup.hpp"
#include "app/process_hooks.hpp"
#include "app/prompt_input.hpp"
#include "app/run_assembly.hpp"
#include "app/session_setup.hpp"
#include "core/agent_loop.hpp"
#include "mcp/server_approval.hpp"
#include "permissions/approval_policy.hpp"
#include "provider/provider_factory.hpp"
#include "tools/job_report.hpp"
#include "ui/print_output.hpp"

namespace nib::app {
namespace {

ui::PrintFormat print_format(OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson:
      return ui::PrintFormat::kJson;
    case OutputFormat::kStreamJson:
      return ui::PrintFormat::kStreamJson;
    case OutputFormat::kText:
      break;
  }
  return ui::PrintFormat::kText;
}

int exit_status(core::RunStopReason reason) {
  switch (reason) {
    case core::RunStopReason::kDone:
      return 0;
    case core::RunStopReason::kAborted:
      return 130;
    case core::RunStopReason::kMaxBudget:
      return kSpendingCapExitStatus;
    case core::RunStopReason::kMaxTurns:
    case core::RunStopReason::kError:
      break;
  }
  return 1;
}

// A print-mode run ends nib, and with it the background jobs still running: say which.
void report_jobs_left_running(const process::JobTable* jobs) {
  if (jobs == nullptr || jobs->running() == 0) return;
  std::cerr << "nib: the run ended while background jobs still ran; nib ends them now:\n";
  for (const process::JobSnapshot& job : jobs->list()) {
    if (job.status.end == process::JobEnd::kRunning) {
      std::cerr << "nib:   " << tools::describe_job_line(job) << '\n';
    }
  }
}

}  // namespace

int run_print_mode(const CliOptions& options, const ModelConfig& model, const RunContext& context,
                   std::stop_token stop) {
  std::string prompt = options.prompt;
  if (prompt.empty() && !isatty(STDIN_FILENO)) {
    prompt.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  if (prompt.find_first_not_of(" \t\r\n") == std::string::npos) {
    std::cerr << "nib: no prompt given. Usage: nib -p \"PROMPT\" (or pipe the prompt on stdin)\n";
    return 2;
  }

  auto opened = open_run(options, model, context);
  if (!opened.ok()) {
    std::cerr << "nib: " << opened.error() << '\n';
    return 2;
  }
  RunResources& run = opened.value();
  for (const std::string& problem : run.problems) {
    std::cerr << "nib: warning: " << problem << '\n';
  }
  for (const std::string& warning : context.guard->warnings()) {
    std::cerr << "nib: " << warning << '\n';
  }
  for (const std::string& notice : run.mcp_notices) std::cerr << "nib: " << notice << '\n';
  for (const mcp::ServerConfig& server : run.mcp_awaiting) {
    std::cerr << "nib: " << mcp::not_approved_notice(server) << '\n';
  }
  auto resolved = resolve_prompt(prompt, model, context, run.mcp.get(), stop);
  if (const auto* failure = std::get_if<PromptFailure>(&resolved)) {
    std::cerr << "nib: " << failure->message << '\n';
    return failure->usage ? 2 : 1;
  }
  PromptInput& input = std::get<PromptInput>(resolved);
  for (const std::string& warning : input.warnings)
    std::cerr << "nib: warning: " << warning << '\n';
  prompt = std::move(input.text);
  const ModelConfig& run_model = input.model;
  const HookNotice hook_notice = [](const std::string& text, bool is_error) {
    std::cerr << "nib: " << (is_error ? "warning: " : "") << text << '\n';
  };
  const core::ToolRegistry& registry = *run.tools;
  RunSession& session = run.session;

  const auto provider =
      provider::make_provider({model.api, model.base_url, model.api_key}, model.retry);
  ui::PrintOutput output(print_format(options.output_format), std::cout, std::cerr,
                         isatty(STDOUT_FILENO) != 0, cost_function(run_model),
                         ui::ToolPresenter(&registry));
  RunGuard& guard = *context.guard;
  output.set_permission_mode(std::string(permissions::mode_name(guard.policy().mode())));
  guard.follow_session([&session] { return session.file(); });
  // Nobody to ask: calls that need approval are refused.
  core::LoopOptions loop_options =
      assemble_loop(options, run_model, context, *provider,
                    {session, *run.subagents, run.hooks, registry, run.plan},
                    {.show = [&output](const core::Event& event) { output.on_event(event); },
                     .notice = hook_notice,
                     .grants = input.grants});

  const ScopedProcessHook record_interruption(ProcessHook::kForcedQuit,
                                              [&session] { session.record_forced_quit(); });
  if (auto refused = admit_prompt(*run.hooks, session, prompt, {{}, std::move(input.media)},
                                  context.existing ? "resume" : "startup", context.notices, stop,
                                  hook_notice, input.finish)) {
    std::cerr << "nib: the prompt was refused by " << *refused << '\n';
    end_session_hooks(*run.hooks, "other", hook_notice);
    return 1;
  }
  core::AgentLoop loop(loop_options);
  const int status = exit_status(loop.run(session.history(), stop).reason);
  report_jobs_left_running(context.jobs.get());
  end_session_hooks(*run.hooks, "other", hook_notice);
  if (!session.write_error().empty()) {
    std::cerr << "nib: the session could not be saved: " << session.write_error() << '\n';
  }
  return status;
}

}  // namespace nib::app
