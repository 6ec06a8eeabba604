#pragma once
// Replacing a file's content so that no reader ever sees it half-written and a crash leaves
// either the old or the new file: the bytes go to a temporary file in the same directory,
// which is flushed to disk (fsync) and then renamed over the target. Thread-safe: calls share
// no state (temporary names are unique per call).
//
// The new file keeps the old one's permission bits and, where the process may, its owner and
// group. A file with several hard links is the exception: a new inode would leave the other
// links with the old content (the user's other name for the file silently stops being the same
// file), so such a file is written in place instead (truncated, written, flushed), keeping its
// inode, permissions and owner, at the price of atomicity: a reader may see it half-written,
// and a failure part way leaves part of the new content.

#include <sys/stat.h>
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace nib::process {

struct AtomicWriteResult {
  int error_number = 0;     // 0 on success, else errno of the step that failed
  std::string failed_step;  // what was being done then ("create a temporary file in ...")
  struct stat written {};   // on success: the new file's stat, as it was after writing
  bool in_place = false;    // the file was (being) written in place: it has several hard links
  bool ok() const { return error_number == 0; }
};

// Writes `bytes` to `path` (which must not be a symbolic link to be kept: the caller resolves
// it). `existing` is the stat of the file being replaced, or nullopt when there is none: then
// the new file gets the mode a plain create would (0666 less the umask). On failure no
// temporary file is left behind and nothing has changed at `path`, unless it was being written
// in place (in_place).
AtomicWriteResult atomic_write(const std::filesystem::path& path, std::string_view bytes,
                               const std::optional<struct stat>& existing);

}  // namespace nib::process
