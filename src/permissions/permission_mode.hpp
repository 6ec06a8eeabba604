#pragma once
// The permission modes: how much a run may do without asking (README "Permission modes").
//   auto      commands run in the sandbox and edits inside the working tree run without asking;
//             anything beyond (a write outside the tree or to a protected file, a command that
//             leaves the sandbox or uses the network) asks. The default.
//   ask       every bash, edit and write call asks unless a rule allows it.
//   read-only only calls that change nothing run; bash only for read-only commands.
//   yolo      no sandbox and no questions; deny rules still hold.
// Claude Code's names are accepted for its settings files: default = ask, acceptEdits = auto,
// plan = read-only, bypassPermissions = yolo. Pure.

#include <string>
#include <string_view>

#include "util/result.hpp"

namespace nib::permissions {

enum class PermissionMode { kAuto, kAsk, kReadOnly, kYolo };

// "auto", "ask", "read-only" or "yolo".
std::string_view mode_name(PermissionMode mode);

// One line saying what the mode lets a run do, for front ends that offer the modes by name.
std::string_view mode_description(PermissionMode mode);

// Claude Code's name for the mode ("acceptEdits", "default", "plan", "bypassPermissions"): what
// hook scripts written for Claude Code read in their input's permission_mode.
std::string_view claude_mode_name(PermissionMode mode);

// A mode by nib's or Claude Code's name; a failure lists the names.
util::Result<PermissionMode> parse_mode(std::string_view name);

}  // namespace nib::permissions
