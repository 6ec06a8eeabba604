#pragma once
// Claude Code's tool names and nib's, in one table: agent definitions' `tools` lists,
// permission rules such as "Bash(git:*)" and hook matchers are written with Claude Code's
// capitalised names, nib's tools answer to their own, and hook scripts expect Claude's names in
// their input. In core so that every layer that reads such configuration (extensions,
// permissions, hooks) shares it. Pure; thread-safe.

#include <span>
#include <string_view>

namespace nib::core {

struct ToolNameAlias {
  std::string_view claude;  // as Claude Code names the tool: "Read"
  std::string_view nib;     // the nib tool that does its job: "read"
};

// Read → read, Grep → grep, Glob → find, LS → ls, Bash → bash, Edit → edit, MultiEdit → edit
// (nib's edit takes several replacements), Write → write, Task and Agent → task (Claude Code
// renamed Task to Agent in 2.1.63 and kept Task as an alias), TodoWrite → todo_write, Skill →
// skill, WebFetch → web_fetch.
std::span<const ToolNameAlias> claude_tool_aliases();

// nib's name for a tool written as `name`: the alias's target for one of Claude Code's names
// (matched exactly: "read" is already nib's name, "READ" is neither), else `name` unchanged.
std::string_view nib_tool_name(std::string_view name);

// Claude Code's name for nib's tool `name`: the first alias that maps to it ("edit" → "Edit",
// "task" → "Task"), else `name` unchanged (an MCP tool's "mcp__server__tool", a tool Claude
// Code does not have).
std::string_view claude_tool_name(std::string_view name);

}  // namespace nib::core
