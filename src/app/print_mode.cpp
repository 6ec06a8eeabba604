#include "app/print_mode.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <iterator>

#include "app/compaction_hooks.hpp"
#include "app/hook_setup.hpp"
#include "app/mcp_prompts.hpp"
#include "app/process_hooks.hpp"
#include "app/run_assembly.hpp"
#include "app/session_setup.hpp"
#include "app/slash_prompt.hpp"
#include "app/subagent_setup.hpp"
#include "core/agent_loop.hpp"
#include "mcp/server_approval.hpp"
#include "permissions/approval_policy.hpp"
#include "provider/provider_factory.hpp"
#include "tools/job_report.hpp"
#include "ui/print_output.hpp"
#include "ui/slash_commands.hpp"

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
  // An MCP prompt's images, after its text in the user's turn.
  core::Content prompt_media;
  std::optional<SlashPrompt> slash;
  if (const auto command = ui::parse_command(prompt); command && names_mcp_prompt(command->name)) {
    // Its server may still be starting: wait for that one (within its startup timeout).
    if (run.mcp) run.mcp->await_server_of(command->name, stop);
    const auto call = prepare_mcp_prompt(run.mcp.get(), *command);
    if (!call.ok()) {
      std::cerr << "nib: " << call.error() << " (nib mcp list shows the servers)\n";
      return 2;
    }
    auto turn = get_mcp_prompt(call.value(), stop);
    if (!turn.ok()) {
      std::cerr << "nib: " << turn.error() << '\n';
      return 1;
    }
    prompt = std::move(turn.value().text);
    prompt_media = std::move(turn.value().media);
  } else {
    auto expanded = expand_slash_prompt(prompt, context.extensions, context.cwd);
    if (!expanded.ok()) {
      std::cerr << "nib: " << expanded.error() << '\n';
      return 2;
    }
    slash = std::move(expanded.value());
  }
  ModelConfig run_model = model;
  if (slash) {
    prompt = slash->text;
    if (slash->model && context.configuration != nullptr) {
      auto named = with_named_model(model, *context.configuration, *slash->model);
      if (named.ok()) {
        run_model = std::move(named.value());
      } else {
        std::cerr << "nib: warning: /" << slash->name << " asks for a model " << named.error()
                  << "; using " << model.model.id << '\n';
      }
    }
  }
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
  core::LoopOptions loop_options =
      base_loop_options(options, run_model, context, *provider, registry);
  loop_options.on_event = [&output, &session](const core::Event& event) {
    session.on_event(event);
    output.on_event(event);
  };
  RunGuard& guard = *context.guard;
  output.set_permission_mode(std::string(permissions::mode_name(guard.policy().mode())));
  guard.follow_session([&session] { return session.file(); });
  guard.guard(loop_options, {});  // nobody to ask: calls that need approval are refused
  install_compaction(
      loop_options, context.compaction,
      [](const std::string& text, bool) { std::cerr << "nib: " << text << '\n'; },
      [hooks = run.hooks, hook_notice](std::stop_token compacting) {
        pre_compact_hooks(*hooks, "auto", "", compacting, hook_notice);
      });
  lend_run_to_subagents(*run.subagents, loop_options, run_model, session.file());
  install_stop_hooks(loop_options, *run.subagents, run.hooks, hook_notice);

  const ScopedProcessHook record_interruption(ProcessHook::kForcedQuit,
                                              [&session] { session.record_forced_quit(); });
  CheckedPrompt checked =
      check_prompt(*run.hooks, prompt, context.existing ? "resume" : "startup", stop, hook_notice);
  if (!checked.message) {
    std::cerr << "nib: the prompt was refused by " << checked.refusal << '\n';
    end_session_hooks(*run.hooks, "other", hook_notice);
    return 1;
  }
  core::AgentLoop loop(loop_options);
  for (core::ContentBlock& block : prompt_media)
    checked.message->content.push_back(std::move(block));
  session.add_prompt(std::move(*checked.message), context.notices);
  const int status = exit_status(loop.run(session.history(), stop).reason);
  report_jobs_left_running(context.jobs.get());
  end_session_hooks(*run.hooks, "other", hook_notice);
  if (!session.write_error().empty()) {
    std::cerr << "nib: the session could not be saved: " << session.write_error() << '\n';
  }
  return status;
}

}  // namespace nib::app
