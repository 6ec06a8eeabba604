#include "core/claude_tool_names.hpp"

#include <array>

namespace nib::core {
namespace {

// The first alias of each nib tool is the name Claude Code's hooks receive for it.
constexpr std::array<ToolNameAlias, 13> kAliases = {{
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
}};

}  // namespace

std::span<const ToolNameAlias> claude_tool_aliases() {
  return kAliases;
}

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

}  // namespace nib::core
