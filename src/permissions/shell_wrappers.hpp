#pragma once
// Finishing one parsed simple command (internal to src/permissions; used by shell_parser.cpp):
// what it really runs once the VAR=x prefixes and the wrappers (timeout, nice, env, xargs,
// sudo, nohup, time, command, stdbuf, ionice, exec, setsid, doas, builtin) with their options
// are taken off, and, for `bash -c SCRIPT` (sh, dash), the commands of the script instead.
// Pure; thread-safe.

#include <vector>

#include "permissions/shell_split.hpp"
#include "util/result.hpp"

namespace nib::permissions {

// Fills `command.command`, `wrappers` and `privileged` and appends the result to `out` (the
// script's commands instead of an inline `bash -c`). A failure names what is not understood:
// eval, trap, an unknown wrapper option, a script only known when it runs. `depth`: the
// nesting level of the command, for the script's own.
util::Status resolve_command(SimpleCommand command, int depth, std::vector<SimpleCommand>& out);

}  // namespace nib::permissions
