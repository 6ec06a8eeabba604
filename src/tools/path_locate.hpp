#pragma once
// Finding the file that a path, as a model writes it, means; and the closest existing names
// when there is none. Models write paths the way users do: "@src/app.cpp" (the "@" a user types
// to mention a file in a prompt), "~/notes.md", a macOS screenshot name with plain spaces where
// the file has U+202F (or U+00A0, or the reverse), and names with the "\xNN" escapes the tools
// show for bytes that are not UTF-8 (path.hpp's escape_name()). Every file tool, and the account of
// what a call touches (path_access.hpp), go through locate_path(), so they agree on the file.
//
// Thread-safe: no shared state; the functions only look at the file system.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace nib::tools {

// What locate_path() is finding.
enum class LocateFor {
  kExisting,  // a file or directory to read, edit, list or search
  kCreate,    // a file write may create: a missing file is placed in the directory meant
};

struct LocatedPath {
  std::filesystem::path path;  // absolute and lexically normal
  bool exists = false;         // `path` exists (a dangling symbolic link counts)
  // Set when the path as written does not exist and other spellings fit several existing
  // files equally (at most kMaxAmbiguousPaths of them): `path` is then the literal spelling,
  // and the caller asks the model to choose rather than guess.
  std::vector<std::filesystem::path> ambiguous;
};

// The file `requested` means, relative to `cwd` ("~" and "~/" from `home`). The rules, in order:
// 1. The path as written (resolve_path()), when it exists: an existing literal path always
//    wins, so a file really named "@x" or "a\x41" is found as it is.
// 2. Else the path without a leading "@", when that exists.
// 3. Else each of those two spellings matched name by name: a name that exists is taken; one
//    that does not matches the directory's entries equal to it when U+00A0, U+202F and a space
//    count as the same character and "\xNN" escapes stand for their bytes. The first spelling
//    that reaches an existing file wins; several matches are reported as ambiguous.
// 4. kCreate only: else the directory the path's parent means (by rules 1-3, in the same order of
//    spellings) joined with the last name as written. So "@src/new.cpp" creates src/new.cpp when
//    src exists, and a new file's own name is never re-spelled.
// 5. Else the path as written, which does not exist.
// Rules 2-4 never redirect to a surprising file: the match must exist, and write and edit
// change an existing file only after the model has read that very file (their results name
// it). A directory of more than kMaxNameScanEntries entries is only partly looked through.
LocatedPath locate_path(std::string_view requested, const std::filesystem::path& cwd,
                        const std::filesystem::path& home, LocateFor purpose);

// locate_path() with the process's home directory (util::process_places()).
LocatedPath locate_path(std::string_view requested, const std::filesystem::path& cwd,
                        LocateFor purpose = LocateFor::kExisting);

// The error for an ambiguous `located`: the spelling the model wrote and the files it fits.
std::string ambiguous_path_message(std::string_view requested, const LocatedPath& located,
                                   const std::filesystem::path& cwd);

// " Did you mean a or b? (in dir)" for `missing`, a path that does not exist: the existing names
// closest to its first missing part, in the deepest directory on its way that exists (case
// differences count for nothing, a different extension or a few typed characters for little;
// directories end with '/'), at most kMaxSuggestedNames. Empty when nothing is close.
std::string did_you_mean(const std::filesystem::path& missing, const std::filesystem::path& cwd);

}  // namespace nib::tools
