#pragma once
// Claude Code's tool names and nib's, in one table: agent definitions' `tools` lists,
// permission rules such as "Bash(git:*)" and hook matchers are written with Claude Code's
// capitalised names, nib's tools answer to their own, and hook scripts expect Claude's names in
// their input. Also Claude Code's tools that nib has no tool for, so that configuration naming
// them is told from a typing mistake. In core so that every layer that reads such configuration
// (extensions, permissions, hooks) shares it. Pure; thread-safe.

#include <string>
#include <string_view>
#include <vector>

namespace nib::core {

// nib's apply_patch, which Claude Code does not have, does Edit's and Write's job for the models
// that edit with patches (ToolSpec::edit_style): see claude_tools_covering.
inline constexpr std::string_view kApplyPatchToolName = "apply_patch";

// The Claude Code tools whose job nib's tool `name` does, so that configuration written for
// them covers it (hook matchers, agent definitions' tool lists): its aliases ("edit" → Edit,
// MultiEdit), and for apply_patch Edit, MultiEdit and Write, so that a hook guarding
// "Edit|Write" also sees the patches of a model that edits with them. Empty for a tool Claude
// Code has no name for.
std::vector<std::string_view> claude_tools_covering(std::string_view name);

// Whether a list of tool names, each nib's or Claude Code's (`--tools`, `--disallowedTools`, an
// agent definition's `tools`), names nib's tool `name`: directly, or through a tool whose job it
// does (claude_tools_covering), so that a list granting or taking away Edit and Write does the
// same to apply_patch.
bool list_names_tool(const std::vector<std::string>& list, std::string_view name);

// nib's name for a tool written as `name`: the alias's target for one of Claude Code's names
// (matched exactly: "read" is already nib's name, "READ" is neither), else `name` unchanged.
std::string_view nib_tool_name(std::string_view name);

// Whether `name` (matched exactly) is one of Claude Code's tools that no nib tool does the job
// of, such as NotebookEdit, or WebSearch where the service has no hosted search: a list written
// for Claude Code names it on purpose, and whoever reads the list goes without it.
bool is_claude_tool_nib_lacks(std::string_view name);

// Claude Code's web search tool. nib offers the service's hosted search instead
// (core::LoopOptions::web_search), to the agents whose list names it when the service has one.
inline constexpr std::string_view kClaudeWebSearchTool = "WebSearch";

// Claude Code's name for nib's tool `name`: the first alias that maps to it ("edit" → "Edit",
// "task" → "Task"), else `name` unchanged (an MCP tool's "mcp__server__tool", a tool Claude
// Code does not have).
std::string_view claude_tool_name(std::string_view name);

}  // namespace nib::core
