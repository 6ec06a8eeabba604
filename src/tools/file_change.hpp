#pragma once
// What edit and write share before and after they change a file: finding the file a path
// names, loading its current content and state, refusing when the model has not seen that
// state, writing the result atomically and remembering it as seen, and turning a planned change
// into the preview an approval question shows. Thread-safe: functions share no state beyond the
// FileTracker, which is thread-safe itself.

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "core/tool.hpp"
#include "tools/editor_files.hpp"
#include "tools/file_tracker.hpp"

namespace nib::tools {

// The file a call changes, as it is before the change.
struct CurrentFile {
  std::filesystem::path target;  // symbolic links resolved: the file actually written
  std::string shown;             // the path as named to the model
  bool exists = false;
  struct stat info {};  // when it exists
  bool loaded = false;  // `bytes` holds the whole file (it was no larger than the load limit)
  std::string bytes;
  FileState state;  // when it exists
};

// Looks at the file `requested` (resolved, not yet symlink-resolved) names and, when it exists
// and is at most `max_load_bytes`, reads it whole: its text from `editor` when one reads files
// (the state then hashes that text with the file's identity on disk), else from disk. Errors (as
// results for the model, naming `tool`: "edit", "write") for a directory or other non-regular file,
// a file that cannot be looked at or read, and an abort; a missing file is not an error (exists is
// false).
std::variant<CurrentFile, core::ToolOutput> load_current_file(
    const std::filesystem::path& requested, std::string shown, std::uint64_t max_load_bytes,
    std::string_view tool, std::stop_token stop, const EditorFiles* editor = nullptr);

// An error when the model has not seen `file`'s current state in this session (it never read
// it, or it changed since), saying to read it again; nullopt when it has. `action` names what
// was refused ("edit", "overwrite").
std::optional<core::ToolOutput> refuse_unless_seen(const FileTracker& tracker,
                                                   const CurrentFile& file,
                                                   std::string_view action);

// Replaces `file` with `bytes` (creating missing parent directories when `create_parents`),
// atomically unless it has several hard links (see atomic_write()), keeping an existing file's
// permissions, or hands `bytes` to `editor` when one writes files; and records the result as
// seen. Refuses when the file changed on disk while the
// call was working on it. Returns nullopt on success, else the error for the model; on error
// nothing has changed, except that a file written in place may hold part of `bytes`.
std::optional<core::ToolOutput> replace_file(FileTracker& tracker, const CurrentFile& file,
                                             std::string_view bytes, bool create_parents,
                                             const EditorFiles* editor = nullptr);

// The preview (core::Tool::preview_change) of a change planned by the steps the call would
// take: `describe(plan)` for a plan, or the error the call would return as the failure.
template <typename Plan, typename Describe>
core::ChangePreview preview_of_plan(std::variant<Plan, core::ToolOutput> planned,
                                    Describe&& describe) {
  if (auto* error = std::get_if<core::ToolOutput>(&planned)) {
    return {.failure = std::move(error->output)};
  }
  return describe(std::get<Plan>(planned));
}

}  // namespace nib::tools
