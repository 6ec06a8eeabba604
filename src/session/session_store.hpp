#pragma once
// SessionStore: where session files live and how they are found again.
//
//   $XDG_DATA_HOME/nib/sessions/<encoded working directory>/<UTC start>_<id>.jsonl
//   (default ~/.local/share/nib/sessions/...)
//
// The directory name is the absolute working directory made filesystem-safe and reversible:
// the leading '/' is dropped and each other '/' becomes '-'; ASCII letters, digits, "._+,=@" and
// valid non-ASCII UTF-8 stay as they are (readable); every other byte, '-', '%', '~', spaces,
// controls and a leading '.' (no hidden directories) included, becomes %XX. "/" itself is "-".
// So /work/my-app is "work-my%2Dapp". A name longer than kMaxDirectoryNameBytes is cut and ends
// in '~' plus a hash of the whole path. File names start with the start time, so sorting them
// sorts sessions by age; the id comes from the name, so lookups by id read no file.
//
// Thread-safety: the object is immutable; concurrent calls only share the file system.

#include <filesystem>
#include <string>
#include <vector>

#include "session/session_file.hpp"
#include "session/session_summary.hpp"
#include "session/session_writer.hpp"
#include "util/result.hpp"
#include "util/user_places.hpp"

namespace nib::session {

// The longest directory name encode_directory_name() makes, in bytes: well under NAME_MAX
// (255) on every common file system.
inline constexpr std::size_t kMaxDirectoryNameBytes = 200;

// The directory name for the absolute path `cwd` (see the file comment).
std::string encode_directory_name(const std::filesystem::path& cwd);

// "2025-06-01T12-34-56.789Z_<id>.jsonl": the start time with '-' for ':' (a character some
// file systems and tools refuse), then the id.
std::string session_file_name(const SessionHeader& header);

class SessionStore {
 public:
  // A store rooted at `root` (the directory holding one directory per working directory).
  explicit SessionStore(std::filesystem::path root) : root_(std::move(root)) {}

  // The user's store: nib/sessions in the user's data directory (util/user_places.hpp:
  // $XDG_DATA_HOME, else ~/.local/share); an error when there is none.
  static util::Result<SessionStore> for_user(const util::UserPlaces& places);

  const std::filesystem::path& root() const { return root_; }

  // The directory holding the sessions of the absolute working directory `cwd`.
  std::filesystem::path directory_for(const std::filesystem::path& cwd) const;

  // Creates a session file for `header` in the directory of header.cwd (made when missing) and
  // returns its writer.
  util::Result<SessionWriter> create(const SessionHeader& header) const;

  // The most recently started session of `cwd`; an error when it has none.
  util::Result<std::filesystem::path> latest(const std::filesystem::path& cwd) const;

  // The session whose id starts with `id_prefix` (case-insensitive): looked for among the
  // sessions of `cwd` first, then in every working directory. An error when none matches or
  // when several do (the message lists them, so the user can type more digits).
  util::Result<std::filesystem::path> find(const std::filesystem::path& cwd,
                                           const std::string& id_prefix) const;

  // The sessions of `cwd`, newest first.
  std::vector<SessionSummary> list(const std::filesystem::path& cwd) const;

 private:
  std::filesystem::path root_;
};

}  // namespace nib::session
