#pragma once
// The built-in `grep` tool: searches file contents under a path for a regex (RE2: linear time,
// so a pattern cannot hang nib) or a literal, in parallel over the machine's cores, skipping
// hidden, ignored (.gitignore / .ignore) and binary files. Arguments: pattern, path, glob,
// ignoreCase, literal, context, limit. Output: "path:line: text" sorted by path then line.
// Concurrency-safe: calls share no state; each claims the searched path as a shared resource,
// so edits and writes of files under it wait (core/claim_table.hpp).

#include "core/tool.hpp"

namespace nib::tools {

// A new grep tool.
core::ToolPtr make_grep_tool();

}  // namespace nib::tools
