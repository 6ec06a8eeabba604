#include "app/mcp_prompts.hpp"

#include <algorithm>

#include "extensions/command_expansion.hpp"
#include "mcp/status_report.hpp"
#include "mcp/tool_name.hpp"

namespace nib::app {
namespace {

// "<city> [state]": required arguments in angle brackets, optional ones in square brackets.
std::string argument_hint(const mcp::ServerPrompt& prompt) {
  std::string hint;
  for (const mcp::PromptArgument& argument : prompt.arguments) {
    if (!hint.empty()) hint += ' ';
    hint += argument.required ? "<" + argument.name + ">" : "[" + argument.name + "]";
  }
  return hint;
}

bool usable_name(const std::string& name) {
  return !name.empty() && name.find_first_of(" \t\n/") == std::string::npos;
}

std::string usage(const std::string& command, const mcp::ServerPrompt& prompt) {
  const std::string hint = argument_hint(prompt);
  return "/" + command + (hint.empty() ? "" : " " + hint);
}

// Why the server of `status` cannot give a prompt now; "" when it is ready.
std::string not_ready(const mcp::ServerStatus& status) {
  const std::string server = "the MCP server " + status.name;
  switch (status.state) {
    case mcp::ServerState::kReady:
      return {};
    case mcp::ServerState::kConnecting:
      return server + " is still starting; its prompts can be used once /mcp shows it ready";
    case mcp::ServerState::kFailed:
      return server + " failed: " + status.detail.substr(0, status.detail.find('\n'));
    case mcp::ServerState::kNotApproved:
      return server + " is not running: " + status.detail;
  }
  return {};
}

}  // namespace

bool names_mcp_prompt(std::string_view name) {
  return name.starts_with("mcp__");
}

std::vector<ui::ExtraCommand> mcp_prompt_commands(const std::vector<mcp::ServerStatus>& statuses) {
  std::vector<ui::ExtraCommand> commands;
  for (const mcp::ServerStatus& status : statuses) {
    if (status.state != mcp::ServerState::kReady) continue;
    for (const mcp::ServerPrompt& prompt : status.prompts) {
      if (!usable_name(prompt.name)) continue;
      const std::string description =
          prompt.description.empty() ? "MCP prompt" : prompt.description;
      commands.push_back({mcp::prompt_command_name(status.name, prompt.name), argument_hint(prompt),
                          description + " (MCP server " + status.name + ")"});
    }
  }
  return commands;
}

util::Result<nlohmann::json> prompt_arguments(const std::string& command,
                                              const mcp::ServerPrompt& prompt,
                                              std::string_view typed) {
  using Result = util::Result<nlohmann::json>;
  const std::vector<std::string> words = extensions::split_arguments(typed);
  const std::size_t declared = prompt.arguments.size();
  if (words.size() > declared) {
    return Result::failure("/" + command + " takes " +
                           (declared == 0 ? std::string("no arguments")
                                          : "at most " + std::to_string(declared) +
                                                (declared == 1 ? " argument" : " arguments")) +
                           ", not " + std::to_string(words.size()) + " (usage: " +
                           usage(command, prompt) + "; put quotes around a value with spaces)");
  }
  nlohmann::json arguments = nlohmann::json::object();
  for (std::size_t i = 0; i < declared; ++i) {
    const mcp::PromptArgument& argument = prompt.arguments[i];
    if (i < words.size()) {
      arguments[argument.name] = words[i];
    } else if (argument.required) {
      return Result::failure(
          "/" + command + " needs <" + argument.name + ">" +
          (argument.description.empty() ? "" : " (" + argument.description + ")") +
          " (usage: " + usage(command, prompt) + ")");
    }
  }
  return arguments;
}

util::Result<McpPromptCall> prepare_mcp_prompt(const mcp::ServerSet* servers,
                                               const ui::CommandLine& command) {
  using Result = util::Result<McpPromptCall>;
  const std::vector<mcp::ServerStatus> statuses =
      servers != nullptr ? servers->statuses() : std::vector<mcp::ServerStatus>{};
  // The server whose prefix the name has (one that offers the prompt, if several do).
  const mcp::ServerStatus* server = nullptr;
  const mcp::ServerPrompt* prompt = nullptr;
  for (const mcp::ServerStatus& status : statuses) {
    if (!command.name.starts_with(mcp::tool_prefix(status.name))) continue;
    server = &status;
    const auto found = std::find_if(
        status.prompts.begin(), status.prompts.end(), [&](const mcp::ServerPrompt& candidate) {
          return mcp::prompt_command_name(status.name, candidate.name) == command.name;
        });
    if (found != status.prompts.end()) {
      prompt = &*found;
      break;
    }
  }
  if (server == nullptr) {
    std::string names;
    for (const mcp::ServerStatus& status : statuses)
      names += (names.empty() ? "" : ", ") + status.name;
    return Result::failure(
        "unknown command /" + command.name + ": no MCP server of that name (" +
        (names.empty() ? std::string("none is configured") : "the servers are " + names) +
        "); /mcp__<server>__<prompt> uses a server's prompt");
  }
  if (const std::string why = not_ready(*server); !why.empty()) {
    return Result::failure("/" + command.name + ": " + why);
  }
  if (prompt == nullptr) {
    std::string names;
    for (const ui::ExtraCommand& offered : mcp_prompt_commands({*server})) {
      names += (names.empty() ? "/" : ", /") + offered.name;
    }
    return Result::failure(
        "unknown command /" + command.name + ": the MCP server " + server->name +
        " has no such prompt (" +
        (names.empty() ? std::string("it offers no prompts") : "its prompts: " + names) + ")");
  }
  auto arguments = prompt_arguments(command.name, *prompt, command.argument);
  if (!arguments.ok()) return Result::failure(arguments.error());
  auto connection = servers->find(server->name);
  if (!connection) return Result::failure("the MCP server " + server->name + " is not running");
  return McpPromptCall{std::move(connection), prompt->name, std::move(arguments.value())};
}

util::Result<McpPromptTurn> get_mcp_prompt(const McpPromptCall& call, std::stop_token stop) {
  auto content = call.server->get_prompt(call.prompt, call.arguments, stop);
  if (!content.ok()) return util::Result<McpPromptTurn>::failure(content.error());
  McpPromptTurn turn;
  for (core::ContentBlock& block : content.value()) {
    if (auto* text = std::get_if<core::TextBlock>(&block)) {
      turn.text += (turn.text.empty() ? "" : "\n\n") + text->text;
    } else {
      turn.media.push_back(std::move(block));
    }
  }
  return turn;
}

}  // namespace nib::app
