#pragma once
// The bash splitter: a command line as the bash tool receives it, cut into the simple commands
// bash would run, so permission rules can judge each one. No Debian package parses bash, so
// this parser is nib's own; its tests use bash itself as the oracle (`bash -n` and the form
// `declare -f` prints).
//
// What it understands: pipelines (| |&), lists (&& || ; & and newlines), subshells ( ),
// groups { ;}, command substitution $(...) and `...`, process substitution <(...) >(...),
// redirections (including here-documents and here-strings), VAR=x prefixes, quoting ($'...'
// too), and the wrappers that run another command (timeout, nice, env, xargs, sudo, nohup,
// time, command, stdbuf, ionice, exec, setsid, doas, builtin), with their options. `bash -c
// SCRIPT` (and sh, dash) is split again inside; its commands replace it.
//
// What it does not: eval, trap, function definitions, control structures (if, for, while,
// case, [[ ]], (( ))), coprocesses, array assignments, a wrapper option it does not know, an
// expansion that hides a command substitution (${x:-$(cmd)}, $(( $(cmd) ))), and anything
// bash itself rejects. Those give understood = false with the reason: the caller asks.
//
// Words are what bash passes after quote removal. Parts only known when the command runs
// ($VAR, ${...}, $(...), globs, ~, brace expansions) stay in the text as written and are marked
// opaque, so a rule can only match them with a wildcard: `rm $DIR` is not `rm build`. The
// words, redirections and simple commands are shell_command.hpp's.
//
// Pure; thread-safe.

#include <string>
#include <string_view>
#include <vector>

#include "permissions/shell_command.hpp"

namespace nib::permissions {

struct ShellSplit {
  bool understood = false;
  std::string problem;                  // why not, when not understood: "eval is not supported"
  std::vector<SimpleCommand> commands;  // in the order they appear (a substitution before the
                                        // command that uses it); empty for an empty line
};

// Splits `command` (one bash command line, possibly several lines).
ShellSplit split_command(std::string_view command);

}  // namespace nib::permissions
