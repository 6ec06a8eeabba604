#include "ui/slash_commands.hpp"

#include <algorithm>

namespace nib::ui {
namespace {

std::string_view trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\n");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t\n") - begin + 1);
}

const SlashCommand* find_command(std::string_view name) {
  for (const SlashCommand& command : slash_commands()) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

}  // namespace

const std::vector<SlashCommand>& slash_commands() {
  static const std::vector<SlashCommand> commands{
      {"help", "", "show the commands and keys"},
      {"model", "[id]", "switch the model (a list without an id)"},
      {"thinking", "[off|low|medium|high]", "set how much the model thinks"},
      {"compact", "[instructions]", "summarize the conversation to free context"},
      {"clear", "", "start a new session"},
      {"resume", "", "continue an earlier session of this directory"},
      {"rewind", "", "go back to before a prompt: the files, the conversation or both (esc esc)"},
      {"session", "", "show the session's file, size and cost"},
      {"jobs", "[log N | kill N]", "list background jobs; show one's last lines or kill it"},
      {"mcp", "", "show the MCP servers: state, transport, tools and prompts"},
      {"quit", "", "leave nib (the session is saved)"},
  };
  return commands;
}

std::optional<CommandLine> parse_command(std::string_view text) {
  text = trim(text);
  if (!text.starts_with('/')) return std::nullopt;
  const std::size_t end = std::min(text.find_first_of(" \t\n"), text.size());
  std::string_view name = text.substr(1, end - 1);
  // "/usr/bin is slow" is a prompt that starts with a path, not a command.
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  return CommandLine{std::string(name), std::string(trim(text.substr(end)))};
}

std::vector<Completion> complete(std::string_view text, const ArgumentChoices& choices,
                                 const std::vector<ExtraCommand>& extra) {
  std::vector<Completion> out;
  if (!text.starts_with('/') || text.find('\n') != std::string_view::npos) return out;
  const std::size_t space = text.find(' ');
  if (space == std::string_view::npos) {
    const std::string_view typed = text.substr(1);
    const auto offer = [&](std::string_view name, std::string_view argument,
                           std::string_view help) {
      if (!name.starts_with(typed)) return;
      std::string label = "/" + std::string(name);
      if (!argument.empty()) label += " " + std::string(argument);
      out.push_back({"/" + std::string(name) + (argument.empty() ? "" : " "), std::move(label),
                     std::string(help)});
    };
    for (const SlashCommand& command : slash_commands()) {
      offer(command.name, command.argument, command.help);
    }
    for (const ExtraCommand& command : extra) {
      if (find_command(command.name) == nullptr) {
        offer(command.name, command.argument, command.help);
      }
    }
    return out;
  }
  const std::string_view name = text.substr(1, space - 1);
  if (find_command(name) == nullptr || !choices) return out;
  const std::string_view typed = trim(text.substr(space + 1));
  for (Completion& choice : choices(name)) {
    if (!choice.label.starts_with(typed)) continue;
    choice.text = "/" + std::string(name) + " " + choice.label;
    out.push_back(std::move(choice));
  }
  return out;
}

}  // namespace nib::ui
