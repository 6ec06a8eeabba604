#pragma once
// The built-in `edit` tool: replaces text in an existing file. Arguments: path, and either
// oldText/newText or edits: [{oldText, newText}, ...] applied together, all or nothing. Each
// oldText must occur exactly once (a tolerant match is tried when no exact one exists; see
// edit_match.hpp); the file must have been read in the session and be unchanged since (see
// file_tracker.hpp). The result splices into the original bytes (line endings and BOM kept)
// and replaces the file atomically. The model gets a short confirmation, the UI a unified diff.
// Before it runs, preview_change() takes the same steps short of writing, so an approval
// question shows the diff the call would apply (or why it would fail).
//
// Not concurrency-safe (it changes files); each call claims its file exclusively. Calls share
// only the FileTracker, which is thread-safe.

#include <memory>

#include "core/tool.hpp"
#include "tools/editor_files.hpp"
#include "tools/file_tracker.hpp"

namespace nib::tools {

// A new edit tool checking and recording file states in `files`.
core::ToolPtr make_edit_tool(std::shared_ptr<FileTracker> files,
                             std::shared_ptr<const EditorFiles> editor = nullptr);

}  // namespace nib::tools
