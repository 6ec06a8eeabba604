#pragma once
// Custom slash commands in Claude Code's format (its slash-commands page): every Markdown file
// under a commands folder is a command named after the file, and its body is the prompt the
// command sends (command_expansion fills in the arguments and @path includes). Front matter is
// optional; a file without one is all body. Reads files only; thread-safe.
//
//   ---
//   description: Fix an issue      optional; else the body's first line
//   argument-hint: [issue] [prio]  optional; shown beside the command in the menu
//   model: haiku                   optional; absent or "inherit": the session's model
//   ---
//   Fix issue #$1 with priority $2: $ARGUMENTS
//
//   allowed-tools: Bash(git status:*), Bash(git diff:*)
//                                  optional; permission rules that allow what they name while
//                                  the command's run lasts and for its !`command`s (a string
//                                  or a list)
//
// Other keys (disable-model-invocation, ...) are accepted and ignored.
//
// Sub-folders: as in Claude Code, .claude/commands/frontend/component.md is /component, and its
// folder shows in the description's label "(project:frontend)". Two files may then share a
// name, so nib also accepts the folder-qualified /frontend:component (issue 16's namespacing),
// which is the command's key: typing a bare name picks the command from the best folder and is
// ambiguous only between sub-folders of one folder.
//
// Folders, best first: <project>/.nib/commands, <project>/.claude/commands, <user
// config>/commands (~/.config/nib/commands), ~/.claude/commands: the project's commands win, as
// in Claude Code. Then the enabled plugins' commands, the plugin's name as their first folder:
// my-plugin's hello.md is /my-plugin:hello, and /hello while no better folder has a hello (the
// user's own commands win), labelled "(plugin:my-plugin)"; ${CLAUDE_PLUGIN_ROOT} in their body
// is the plugin's folder.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extensions/definition_files.hpp"
#include "extensions/front_matter.hpp"
#include "extensions/problem.hpp"
#include "util/result.hpp"

namespace nib::extensions {

struct CommandDefinition {
  std::string name;            // the file's name without ".md": "component"
  std::string namespace_path;  // its sub-folders joined by ':': "frontend" ("" at the top)
  std::string description;
  std::string argument_hint;
  std::optional<std::string> model;  // as written; nullopt: the session's model
  std::string body;                  // without leading and trailing blank lines
  // allowed-tools, as permission rules written in Claude Code's form ("Bash(git add:*)"), and
  // the line they are on.
  std::vector<std::string> allowed_tools;
  int allowed_tools_line = 0;
  Origin origin = Origin::kProjectNib;
  std::filesystem::path file;

  // "frontend:component", or "component" at the top of its folder.
  std::string qualified_name() const;
  // "(project:frontend)", "(user)": Claude Code's label for the menu.
  std::string label() const;
};

using CommandParse = DefinitionParse<CommandDefinition>;

// The command in `document`, read from `file`, which is `relative` (e.g. "frontend/
// component.md") under its commands folder. Problems: a file or folder name that cannot be
// typed after "/" (letters, digits, '-', '_' and '.' can), a known key of the wrong type.
CommandParse parse_command(const MarkdownDocument& document, const std::filesystem::path& file,
                           const std::filesystem::path& relative, Origin origin);

struct CommandCatalog {
  std::vector<CommandDefinition> commands;  // sorted by qualified name
  std::vector<Problem> problems;

  // The command for what the user typed after "/" ("component", "frontend:component"), or
  // why there is none: unknown, or in several folders (with the choices).
  util::Result<const CommandDefinition*> find(std::string_view typed) const;
};

// Every command for `roots`. A top-level command named like one of `reserved` (nib's built-in
// slash commands, which come first) is a problem and left out.
CommandCatalog load_commands(const ExtensionRoots& roots, const std::vector<std::string>& reserved);

}  // namespace nib::extensions
