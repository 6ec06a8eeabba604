#pragma once
// Claude Code's tool names and nib's, in one table: agent definitions' `tools` lists (and,
// later, permission rules such as "Bash(git:*)") are written with Claude Code's capitalised
// names, and nib's tools answer to their own. Also the splitting of a tool list into entries.
// Depends on the standard library and util only, so any layer can use it. Pure; thread-safe.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nib::extensions {

struct ToolNameAlias {
  std::string_view claude;  // as Claude Code names the tool: "Read"
  std::string_view nib;     // the nib tool that does its job: "read"
};

// Read → read, Grep → grep, Glob → find, LS → ls, Bash → bash, Edit → edit, MultiEdit → edit
// (nib's edit takes several replacements), Write → write, Task and Agent → task (Claude Code
// renamed Task to Agent in 2.1.63 and kept Task as an alias), TodoWrite → todo_write, Skill →
// skill.
std::span<const ToolNameAlias> claude_tool_aliases();

// nib's name for a tool written as `name`: the alias's target for one of Claude Code's names
// (matched exactly: "read" is already nib's name, "READ" is neither), else `name` unchanged.
std::string_view nib_tool_name(std::string_view name);

// One entry of a tool list: "Read", or "Bash(git:*)" with a specifier.
struct ToolEntry {
  std::string name;                      // as written, before any "("
  std::optional<std::string> specifier;  // inside the parentheses, trimmed

  friend bool operator==(const ToolEntry&, const ToolEntry&) = default;
};

// The entries of a tool list as Claude Code writes them: separated by commas or blanks outside
// parentheses ("Agent(worker, researcher), Read Bash(git status)" is three entries). Empty
// entries are dropped; an unclosed "(" runs to the end.
std::vector<ToolEntry> split_tool_list(std::string_view text);

}  // namespace nib::extensions
