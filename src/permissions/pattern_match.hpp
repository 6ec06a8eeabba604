#pragma once
// The two wildcard matchers behind permission rules. Pure; thread-safe.
//
// Command patterns (Bash rules): `*` matches any run of characters, blanks included. The
// command's opaque bytes (parts known only when it runs, shell_split.hpp) are matched only by a
// `*` for a certain match; for a possible match an opaque run may also stand for any part of
// the pattern ("rm $X" may be "rm -rf /").
//
// Path patterns (Read, Edit, Write rules), gitignore-like: `*` and `?` stay within one path
// segment, `**/` matches any number of directories (none included), a final `/**` matches
// everything below a directory and the directory itself, any other `**` anything.

#include <string>
#include <string_view>
#include <vector>

namespace nib::permissions {

// Whether `pattern` (with `*` wildcards; `\*` is a literal star) matches all of `text`.
// `opaque` has one flag per byte of `text`. `possibly`: opaque runs may match anything.
bool command_pattern_matches(std::string_view pattern, std::string_view text,
                             const std::vector<bool>& opaque, bool possibly);

// Whether the path glob `pattern`, which follows the literal directory `base` (no wildcards
// in it; empty for a pattern that is absolute already), matches the normalised absolute
// `path`.
bool path_pattern_matches(std::string_view base, std::string_view pattern, std::string_view path);

}  // namespace nib::permissions
