#pragma once
// The built-in `read` tool: a page of a text file, an image attachment, or a short notice for
// other binary files. Arguments: path (relative to ToolContext::cwd, absolute, or ~/...),
// offset (1-based first line), limit (number of lines). Concurrency-safe: calls share no
// state, and each claims its file as a shared resource so edits of it wait.

#include "core/tool.hpp"

namespace nib::tools {

// A new read tool.
core::ToolPtr make_read_tool();

}  // namespace nib::tools
