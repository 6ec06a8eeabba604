#include "app/print_mode.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <iterator>

#include "app/compaction_hooks.hpp"
#include "app/process_hooks.hpp"
#include "app/run_assembly.hpp"
#include "app/session_setup.hpp"
#include "app/subagent_setup.hpp"
#include "core/agent_loop.hpp"
#include "permissions/approval_policy.hpp"
#include "provider/provider_factory.hpp"
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
    case core::RunStopReason::kMaxTurns:
    case core::RunStopReason::kError:
      break;
  }
  return 1;
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
    std::cerr << "nib: warning: an agent definition was left out or changed: " << problem << '\n';
  }
  for (const std::string& notice : run.mcp_notices) std::cerr << "nib: " << notice << '\n';
  const core::ToolRegistry& registry = *run.tools;
  RunSession& session = run.session;

  const auto provider =
      provider::make_provider({model.api, model.base_url, model.api_key}, model.retry);
  ui::PrintOutput output(print_format(options.output_format), std::cout, std::cerr,
                         isatty(STDOUT_FILENO) != 0, cost_function(model),
                         ui::ToolPresenter(&registry));
  core::LoopOptions loop_options = base_loop_options(options, model, context, *provider, registry);
  loop_options.on_event = [&output, &session](const core::Event& event) {
    session.on_event(event);
    output.on_event(event);
  };
  permissions::ApprovalPolicy approvals(options.ask);
  loop_options.gate = approvals.gate({});  // nobody to ask: calls that need approval are refused
  install_compaction(loop_options, context.compaction,
                     [](const std::string& text, bool) { std::cerr << "nib: " << text << '\n'; });
  lend_run_to_subagents(*run.subagents, loop_options, model, session.file());

  const ScopedProcessHook record_interruption(ProcessHook::kForcedQuit,
                                              [&session] { session.record_forced_quit(); });
  core::AgentLoop loop(loop_options);
  session.add_prompt(core::UserMessage{core::text_content(prompt)});
  const int status = exit_status(loop.run(session.history(), stop).reason);
  if (!session.write_error().empty()) {
    std::cerr << "nib: the session could not be saved: " << session.write_error() << '\n';
  }
  return status;
}

}  // namespace nib::app
