#pragma once
// A custom command's body, or a skill's instructions, made into the prompt it sends, following
// Claude Code's slash-command and skill pages: the arguments fill $ARGUMENTS and the positional
// placeholders, then, for commands, the files named by @path are included (file_includes).
// split_arguments, substitute_arguments and expand_skill are pure; expand_command reads files.
// Thread-safe.
//
// Placeholders: $ARGUMENTS is the whole argument text, $ARGUMENTS[N] its word N counted from 0.
// The short positional form depends on the format. Commands were documented one-based ($1 is
// the first word, up to $9) and existing command files are written so; Claude Code's skills
// are zero-based ($0 is the first word, up to $9). A command body that uses $0 is written the
// zero-based way and read so; in a one-based body "$0" stays as written. A placeholder for a
// word not given becomes empty. "$10" is the word for "$1" followed by "0", as in a shell. When
// the body has no placeholder at all, non-empty arguments are appended as "ARGUMENTS: <text>",
// as Claude Code does, so what the user typed is never dropped. Arguments are not scanned again.
//
// Includes: see file_includes.
//
// Commands: the body's !`command` spans and "```!" blocks (prompt_commands.hpp), found in the
// body as written, so that no argument can make one. Inside a command each placeholder becomes
// its value as one single-quoted shell word (`!`git show $1`` with `HEAD;rm x` runs
// `git show 'HEAD;rm x'`). A command written in an included file is text.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "extensions/prompt_commands.hpp"
#include "extensions/skill_catalog.hpp"

namespace nib::extensions {

// The words of `arguments` for the positional placeholders, split as a POSIX shell splits them
// (Claude Code: "shell-style quoting"), without expanding anything: blanks separate words;
// "double" and 'single' quotes group words and are removed ('"a b" c' is two words); a
// backslash keeps the next character as it is (inside double quotes only before ", \, $ and
// `). An unclosed quote runs to the end.
std::vector<std::string> split_arguments(std::string_view arguments);

// How $N counts: from $1 (commands) or from $0 (skills).
enum class Positions { kOneBased, kZeroBased };

// `body` with its placeholders filled from `arguments` (trimmed for $ARGUMENTS).
std::string substitute_arguments(std::string_view body, std::string_view arguments, Positions base);

// A command's prompt before its commands ran: `text` as expanded, and the spans of it that
// `commands` replace by their output (with_command_outputs).
struct CommandPrompt {
  std::string text;
  std::vector<PromptCommand> commands;
};

// What a command with `body` sends for `arguments`: substitute_arguments (zero-based when the
// body uses $0, else one-based), its commands found, then include_files from `working_dir` (so
// an @path among the arguments is included too; included files are not scanned again).
CommandPrompt expand_command(std::string_view body, std::string_view arguments,
                             const std::filesystem::path& working_dir);

// What `/<skill> <arguments>` loads for the next turn: the skill's instructions with its
// placeholders filled (zero-based) and ${CLAUDE_SKILL_DIR} replaced by the skill's folder, so
// the instructions can name the resources beside SKILL.md. No @path includes: a skill names
// its files relative to its folder, not the working directory.
std::string expand_skill(const SkillDefinition& skill, std::string_view arguments);

}  // namespace nib::extensions
