// The MCP parts of InteractiveSession (see interactive_session.hpp): /mcp, the servers' prompts
// as slash commands, and the question whether to start a project's server.

#include "app/interactive_session.hpp"
#include "app/mcp_setup.hpp"
#include "mcp/status_report.hpp"
#include "util/ascii.hpp"

namespace nib::app {

void InteractiveSession::show_mcp_servers() {
  if (!mcp_) return notice(mcp::kNoServersConfigured);
  std::string text = "MCP servers:\n";
  for (const mcp::ServerStatus& status : mcp_->statuses()) text += mcp::status_report(status);
  if (const core::ToolRegistry::Deferral deferral = tools_->deferral(); deferral.active) {
    text +=
        "Their tools are offered through tool_search, not listed in every request: their "
        "schemas come to " +
        std::to_string(deferral.added_bytes / 1024) + " KB, over the " +
        std::to_string(deferral.threshold / 1024) + " KB of mcp.toolSearchAboveKB (" +
        std::to_string(deferral.loaded) + " of " +
        std::to_string(deferral.loaded + deferral.deferred) + " loaded so far).\n";
  }
  text +=
      "Prompts run as /mcp__<server>__<prompt> [ARGS]; a project's server starts once you "
      "approve it (nib mcp approve NAME).";
  notice(std::move(text));
}

void InteractiveSession::run_mcp_prompt(const ui::CommandLine& command, const std::string& text) {
  auto call = prepare_mcp_prompt(mcp_.get(), command);
  if (!call.ok()) {
    return notice(util::ascii_capitalized(call.error()) + ".", ui::NoticeKind::kWarning);
  }
  // prompts/get waits for the server (up to its call timeout): on the worker's thread.
  start_run(text, "", model_, [call = std::move(call.value())](std::stop_token stop) {
    return get_mcp_prompt(call, stop);
  });
}

std::vector<ui::ExtraCommand> InteractiveSession::offered_commands() const {
  std::vector<ui::ExtraCommand> commands = user_commands_;
  if (mcp_) {
    for (ui::ExtraCommand& prompt : mcp_prompt_commands(mcp_->statuses())) {
      commands.push_back(std::move(prompt));
    }
  }
  return commands;
}

void InteractiveSession::ask_next_mcp_approval() {
  if (mcp_awaiting_.empty() || !mcp_) return;
  const mcp::ServerConfig& server = mcp_awaiting_.front();
  std::vector<std::string> entries = {"Yes, start " + server.name +
                                      " (remembered for this project)"};
  const std::size_t others = mcp_awaiting_.size() - 1;
  if (others > 0) {
    entries.push_back("Yes, and the " + std::to_string(others) + " other" +
                      (others == 1 ? " server" : " servers") + " this project asks for");
  }
  entries.push_back("No (remembered; nib mcp approve " + server.name + " changes it)");
  ui::PickerView view{
      "Start the MCP server " + server.name + " that this project configures?",
      std::move(entries),
      0,
      {mcp::describe_transport(server), "from " + server.file.string(),
       "It runs with your rights; start only what you trust. Esc: not now (asked next time)."}};
  open_picker(
      std::move(view),
      [this, others](std::size_t choice) {
        const bool all = others > 0 && choice == 1;
        const bool yes = choice == 0 || all;
        std::vector<mcp::ServerConfig> answered;
        if (all) {
          answered = std::exchange(mcp_awaiting_, {});
        } else {
          answered.push_back(mcp_awaiting_.front());
          mcp_awaiting_.erase(mcp_awaiting_.begin());
        }
        for (const mcp::ServerConfig& config : answered) {
          if (yes) {
            approve_mcp_server(config);
            continue;
          }
          const util::Status kept = remember_mcp_answer(context_, config, false);
          notice(kept.ok() ? "The MCP server " + config.name +
                                 " stays off for this project (nib mcp approve " + config.name +
                                 " starts it)."
                           : "The MCP server " + config.name +
                                 " stays off; the answer could not be saved: " + kept.error(),
                 kept.ok() ? ui::NoticeKind::kInfo : ui::NoticeKind::kWarning);
        }
        ask_next_mcp_approval();
      },
      [this] {
        mcp_awaiting_.erase(mcp_awaiting_.begin());
        ask_next_mcp_approval();
      });
}

void InteractiveSession::approve_mcp_server(const mcp::ServerConfig& server) {
  const util::Status kept = remember_mcp_answer(context_, server, true);
  if (kept.ok()) {
    notice("Starting the MCP server " + server.name +
           " (approved for this project; /mcp shows it).");
  } else {
    notice("Starting the MCP server " + server.name +
               " for this session only; the approval could not be saved: " + kept.error(),
           ui::NoticeKind::kWarning);
  }
  mcp_->start_approved(server);
}

}  // namespace nib::app
