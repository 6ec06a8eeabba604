#pragma once
// The built-in `read` tool: a page of a text file, an image attachment, or a short notice for
// other binary files. Arguments: path (relative to ToolContext::cwd, absolute, or ~/...),
// offset (1-based first line), limit (number of lines). Concurrency-safe: calls share only
// the FileTracker (thread-safe), and each claims its file as a shared resource so edits of it
// wait.
//
// After a successful text or image read, the file's state is recorded in the tracker as seen
// by the model: the whole file's state, also when only a page of it was shown (the model was
// told where it is and can page on; edit and write only need to know it has not changed since).
// Binary notices and errors record nothing.

#include <memory>

#include "core/tool.hpp"
#include "tools/editor_files.hpp"
#include "tools/file_tracker.hpp"

namespace nib::tools {

// A new read tool recording what it shows in `files`.
core::ToolPtr make_read_tool(std::shared_ptr<FileTracker> files,
                             std::shared_ptr<const EditorFiles> editor = nullptr);

}  // namespace nib::tools
