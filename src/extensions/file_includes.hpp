#pragma once
// The @path includes of a custom command's prompt (Claude Code's slash-command page: "@" file
// references include a file's contents). Reads files; thread-safe.
//
// "@path" at the start of the text or after a blank or "(" names a file, relative to
// the working directory (an absolute path must lie inside it too). Trailing punctuation is not
// part of the path unless a file by the longer name exists. Text in fenced code blocks and
// inline code spans is left alone (Python's @decorator, an example @mention). Each file is
// appended once, after the text, as
//   <file path="src/a.cpp">
//   ...
//   </file>
// and the @path stays where it was written, so the prose still reads. A file that cannot be
// included gets a one-line marker instead, saying why: it does not exist, it is a directory,
// it is not text (a NUL byte), or it resolves outside the working directory (symbolic links
// followed): a command from a cloned repository must not send ~/.ssh to the model. Files are
// cut at kMaxIncludeBytes and all includes together at kMaxIncludedBytes, with a note pointing
// at the read tool; invalid UTF-8 is replaced with U+FFFD.

#include <filesystem>
#include <string>
#include <string_view>

namespace nib::extensions {

// `text` followed by the files its @paths name, read from `working_dir`.
std::string include_files(std::string_view text, const std::filesystem::path& working_dir);

}  // namespace nib::extensions
