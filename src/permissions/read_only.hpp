#pragma once
// nib's built-in list of commands that change nothing, for the read-only permission mode: a
// conservative list (what is not on it is not read-only). Pure; thread-safe.

#include "permissions/shell_split.hpp"

namespace nib::permissions {

// True when `command` only reads: a listed program (ls, cat, head, tail, wc, grep and rg
// without options that run programs, find without -exec/-delete/-fprint..., git status / log /
// diff / show / branch and tag listings / ..., pwd, echo, which, file, stat, du, df, ...),
// with no output redirection into a file, not run as another user, and no VAR=x prefix that
// changes what runs. A command that runs nothing (`X=1`) is read-only too.
bool is_read_only(const SimpleCommand& command);

}  // namespace nib::permissions
