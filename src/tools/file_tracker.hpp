#pragma once
// What the model has seen of each file in a session, so that edit and write never overwrite a
// file that changed on disk since the model last read or wrote it (by the user, a formatter, or
// a command it ran), nor one it never looked at.
//
// A file's state is its identity (device, inode), size, modification time and, for files up
// to kMaxHashedFileBytes, a hash of its bytes. The hash is the tie-breaker: the kernel stamps
// modification times from a coarse clock (a few milliseconds), so a rewrite of the same size
// soon after a read can leave size and mtime unchanged. Larger files are logs and data rather
// than source; hashing one on every read would cost a second full scan, so beyond that size
// identity, size and mtime decide (kMaxHashedFileBytes).
//
// FileTracker is thread-safe: concurrent reads record while an edit checks. The free functions
// are pure apart from the file-system calls they name.

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "tools/limits.hpp"

namespace nib::tools {

struct FileState {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::optional<std::uint64_t> hash;  // of the bytes; unset above kMaxHashedFileBytes
  bool operator==(const FileState&) const = default;
};

// A fast, non-cryptographic 64-bit hash of `bytes` (XXH3-64 from libxxhash, at memory speed): it
// detects changes, it does not resist someone crafting collisions. Only compared within one
// process, never stored, so its values may change with the library.
std::uint64_t content_hash(std::string_view bytes);

// The state described by `info`, with `bytes` (the file's whole content) hashed when the file
// is small enough; `bytes` is ignored for larger files.
FileState file_state(const struct stat& info, std::string_view bytes);

// The state of the open regular file `fd` as the model saw it: identity, size and mtime from
// `before` (its stat taken before its content was read for the model) and, for a small enough
// file, a hash of its bytes read now with pread. Should the file have changed in between, the
// mix matches no later state, so the change is noticed rather than hidden. nullopt when a read
// fails or `stop` is requested.
std::optional<FileState> file_state_of(int fd, const struct stat& before,
                                       std::stop_token stop = {});

// The file an absolute `path` names, with every symbolic link resolved, including a dangling
// final link (writing through it creates its target, as a shell redirection would). For a path
// that does not exist, its existing ancestors are resolved. Edit and write change this file
// (so a link stays a link), and the tracker keys on it, so a read through a link and an edit
// of its target agree.
std::filesystem::path resolve_file(const std::filesystem::path& path);

// How a file's current state compares with what the model saw of it.
enum class Freshness {
  kUnchanged,  // the same state as last seen
  kNeverSeen,  // nothing recorded for this path in the session
  kChanged,    // recorded, but the file differs now
};

// What check() says of a file with no record in the session.
enum class UnseenFiles {
  kRefuse,  // kNeverSeen: the model must read a file before changing it (a model session)
  // kUnchanged: each file counts as seen as it is now. For `nib tool`, one call with no
  // history, where the person running it has the file in front of them.
  kTrustCurrent,
};

class FileTracker {
 public:
  explicit FileTracker(UnseenFiles unseen = UnseenFiles::kRefuse) : unseen_(unseen) {}

  // Remembers `state` as what the model last saw of the file at `path` (a resolve_file() result).
  void record(const std::filesystem::path& path, const FileState& state);

  // Compares `current` with what was recorded for `path`.
  Freshness check(const std::filesystem::path& path, const FileState& current) const;

  // What was recorded for `path`, if anything.
  std::optional<FileState> last_seen(const std::filesystem::path& path) const;

 private:
  const UnseenFiles unseen_;
  mutable std::mutex mutex_;
  std::map<std::string, FileState> seen_;  // guarded by mutex_
};

}  // namespace nib::tools
