#pragma once
// The built-in `write` tool: creates a file, or replaces all of an existing one, with the given
// content, exactly as given. Arguments: path, content. Creates missing parent directories,
// replaces atomically, keeps an existing file's permissions, writes a symbolic link's target,
// and refuses to overwrite a file the model has not read in the session or that changed since
// (see file_tracker.hpp); a new file needs no read. Before it runs, preview_change() takes the
// same steps short of writing: the diff against the file (a new file's first lines and line
// count), a summary for binary or too large files, or why the write would fail.
//
// Not concurrency-safe (it changes files); each call claims its file exclusively. Calls share
// only the FileTracker, which is thread-safe.

#include <memory>

#include "core/tool.hpp"
#include "tools/editor_files.hpp"
#include "tools/file_tracker.hpp"

namespace nib::tools {

// A new write tool checking and recording file states in `files`.
core::ToolPtr make_write_tool(std::shared_ptr<FileTracker> files,
                              std::shared_ptr<const EditorFiles> editor = nullptr);

}  // namespace nib::tools
