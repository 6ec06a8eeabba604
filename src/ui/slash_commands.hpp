#pragma once
// The interactive mode's slash commands: their names and help, parsing what the user typed,
// and completing a half-typed command or its argument. Pure functions; thread-safe.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nib::ui {

struct SlashCommand {
  std::string_view name;      // without the slash
  std::string_view argument;  // "[instructions]", "" when it takes none
  std::string_view help;
};

// Every command, in the order /help lists them.
const std::vector<SlashCommand>& slash_commands();

// A command the user brought (a custom command or a skill), offered after the built-in ones;
// a built-in command of the same name wins.
struct ExtraCommand {
  std::string name;      // as typed after '/': "component", "frontend:component"
  std::string argument;  // its argument hint, "" when none
  std::string help;      // its description and where it comes from: "... (project:frontend)"
};

struct CommandLine {
  std::string name;      // "model"
  std::string argument;  // the rest, trimmed
};

// "/model gpt-5" as a command line; nullopt when `text` is not a command (it does not start
// with '/', or is a path such as "/usr/bin is slow").
std::optional<CommandLine> parse_command(std::string_view text);

struct Completion {
  std::string text;         // the editor's whole text once accepted
  std::string label;        // what the menu shows
  std::string description;  // shown dim beside it
};

// The choices for a command's argument (e.g. model ids for "model"); empty for none.
using ArgumentChoices = std::function<std::vector<Completion>(std::string_view command)>;

// What `text` (the editor's contents) can be completed to: command names (built-in, then
// `extra` ones not named like a built-in) while the first word is typed, then a built-in
// command's argument choices that start with what was typed. Empty when nothing applies.
std::vector<Completion> complete(std::string_view text, const ArgumentChoices& choices,
                                 const std::vector<ExtraCommand>& extra = {});

}  // namespace nib::ui
