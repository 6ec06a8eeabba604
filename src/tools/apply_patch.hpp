#pragma once
// apply_patch: changes files with a patch in Codex's envelope (tools/patch_text.hpp), the edit
// tool OpenAI's models are trained on. Every path the patch names is judged as edit's and
// write's are (access: each file and a move's destination, claimed exclusively), a file that
// exists must have been read in the session and be unchanged since (as for edit), and nothing
// is written until every operation has been worked out in memory: a patch applies whole or
// changes nothing (Codex itself may leave the files before a failing one changed; a model
// that retries a half-applied patch makes things worse), bar a write failing midway, which the
// result names. Success reads as Codex's: "Success. Updated the following files:" and a line
// per file, A (added), M (changed or moved) or D (deleted).

#include <memory>

#include "core/tool.hpp"
#include "tools/editor_files.hpp"
#include "tools/file_tracker.hpp"

namespace nib::tools {

core::ToolPtr make_apply_patch_tool(std::shared_ptr<FileTracker> files,
                                    std::shared_ptr<const EditorFiles> editor = nullptr);

}  // namespace nib::tools
