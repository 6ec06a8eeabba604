#include "core/claude_tool_names.hpp"

#include <algorithm>
#include <array>

namespace nib::core {
namespace {

struct ToolNameAlias {
  std::string_view claude;  // as Claude Code names the tool: "Read"
  std::string_view nib;     // the nib tool that does its job: "read"
};

// Read → read, Grep → grep, Glob → find, LS → ls, Bash → bash, Edit → edit, MultiEdit → edit
// (nib's edit takes several replacements), Write → write, Task and Agent → task (Claude Code
// renamed Task to Agent in 2.1.63 and kept Task as an alias), TodoWrite → todo_write, Skill →
// skill, WebFetch → web_fetch, BashOutput → job_output and KillShell → job_kill (the output and
// the end of a command bash started in the background). The first alias of each nib tool is
// the name Claude Code's hooks receive for it.
constexpr std::array<ToolNameAlias, 15> kAliases = {{
    {"Read", "read"},
    {"Grep", "grep"},
    {"Glob", "find"},
    {"LS", "ls"},
    {"Bash", "bash"},
    {"Edit", "edit"},
    {"MultiEdit", "edit"},
    {"Write", "write"},
    {"Task", "task"},
    {"Agent", "task"},
    {"TodoWrite", "todo_write"},
    {"Skill", "skill"},
    {"WebFetch", "web_fetch"},
    {"BashOutput", "job_output"},
    {"KillShell", "job_kill"},
}};

// Claude Code's tools (as of 2.1, with TodoRead of the versions before) that no nib tool does
// the job of: notebooks, questions to the user in the middle of a call, leaving plan mode,
// running slash commands, MCP resources, and the hosted web search, which nib offers the
// user's run when asked (--web-search) but no subagent.
constexpr std::array<std::string_view, 9> kClaudeToolsNibLacks = {
    "AskUserQuestion", "ExitPlanMode", "ListMcpResourcesTool",
    "NotebookEdit",    "NotebookRead", "ReadMcpResourceTool",
    "SlashCommand",    "TodoRead",     "WebSearch",
};

}  // namespace

std::string_view nib_tool_name(std::string_view name) {
  for (const ToolNameAlias& alias : kAliases) {
    if (alias.claude == name) return alias.nib;
  }
  return name;
}

std::string_view claude_tool_name(std::string_view name) {
  for (const ToolNameAlias& alias : kAliases) {
    if (alias.nib == name) return alias.claude;
  }
  return name;
}

std::vector<std::string_view> claude_tools_covering(std::string_view name) {
  std::vector<std::string_view> covering;
  for (const ToolNameAlias& alias : kAliases) {
    const bool patch_covers =
        name == kApplyPatchToolName && (alias.nib == "edit" || alias.nib == "write");
    if (alias.nib == name || patch_covers) covering.push_back(alias.claude);
  }
  return covering;
}

bool is_claude_tool_nib_lacks(std::string_view name) {
  return std::find(kClaudeToolsNibLacks.begin(), kClaudeToolsNibLacks.end(), name) !=
         kClaudeToolsNibLacks.end();
}

bool list_names_tool(const std::vector<std::string>& list, std::string_view name) {
  const std::vector<std::string_view> covering = claude_tools_covering(name);
  return std::any_of(list.begin(), list.end(), [&](const std::string& listed) {
    const std::string_view listed_nib = nib_tool_name(listed);
    return listed_nib == name ||
           std::any_of(covering.begin(), covering.end(), [&](std::string_view claude) {
             return listed_nib == nib_tool_name(claude);
           });
  });
}

}  // namespace nib::core
