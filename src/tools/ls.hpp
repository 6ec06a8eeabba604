#pragma once
// The built-in `ls` tool: the entries of one directory, sorted, dotfiles included, directories
// marked with '/', symlinks shown as "name -> target", at most `limit` of them with the total
// named. Concurrency-safe: calls share no state; each claims the listed path as a shared resource,
// so edits and writes of files under it wait (core/claim_table.hpp).

#include "core/tool.hpp"

namespace nib::tools {

// A new ls tool.
core::ToolPtr make_ls_tool();

}  // namespace nib::tools
