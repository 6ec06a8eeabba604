#pragma once
// Finishing one parsed simple command (internal to src/permissions; used by shell_parser.cpp):
// what it really runs once the VAR=x prefixes and the wrappers (timeout, nice, env, xargs,
// sudo, nohup, time, command, stdbuf, ionice, exec, setsid, doas, builtin) with their options
// are taken off, or, for `bash -c SCRIPT` (sh, dash), the script, whose commands the parser
// reads and which run in its place. Pure; thread-safe.

#include <string>
#include <variant>
#include <vector>

#include "permissions/shell_command.hpp"
#include "util/result.hpp"

namespace nib::permissions {

// The script of `bash -c SCRIPT` (sh, dash), whose commands run in place of the command that
// holds it.
struct InlineScript {
  std::string shell;  // "bash": how problems inside the script name it
  std::string text;
  // Around each of its commands: the wrappers of the command that holds it, outermost first,
  // then the shell as written ("bash -c"); and that command's privilege and redirections.
  std::vector<std::string> wrappers;
  bool privileged = false;
  std::vector<Redirection> redirections;

  // `part`, one command of the script, as it really runs.
  SimpleCommand run(SimpleCommand part) const;
};

// `command` with `command.command`, `wrappers` and `privileged` filled in, or the inline script
// it runs instead. A failure names what is not understood: eval, trap, an unknown wrapper
// option, a script only known when it runs.
util::Result<std::variant<SimpleCommand, InlineScript>> resolve_command(SimpleCommand command);

}  // namespace nib::permissions
