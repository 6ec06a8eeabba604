#pragma once
// The built-in `find` tool: files and directories whose name (or relative path) matches a glob,
// below a directory, honouring ignore files and skipping hidden entries unless asked. Results
// are relative to the searched directory, sorted, at most `limit` of them with the total named.
// Concurrency-safe: calls share no state; each claims the searched path as a shared resource,
// so edits and writes of files under it wait (core/claim_table.hpp).

#include "core/tool.hpp"

namespace nib::tools {

// A new find tool.
core::ToolPtr make_find_tool();

}  // namespace nib::tools
