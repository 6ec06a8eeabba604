#pragma once
// The patch format of apply_patch (Codex's envelope, which OpenAI's models are trained to
// write): parsing `*** Begin Patch` ... `*** End Patch` into file operations, and applying an
// update's chunks to a file's text in memory. Pure functions; the tool that judges, claims and
// writes the files is built on them.
//
//   *** Begin Patch
//   *** Add File: path          then the file's lines, each after '+'
//   *** Delete File: path
//   *** Update File: path
//   *** Move to: new/path       (optional)
//   @@ optional context line    then ' ' context, '-' removed and '+' added lines; the first
//                               chunk may leave out its @@; `*** End of File` ends a chunk at
//                               the end of the file
//   *** End Patch
//
// Parsing is as lenient as Codex's: surrounding whitespace, CRLF, a heredoc wrapper (<<'EOF').
// Context is found in four passes (exact; trailing whitespace ignored; surrounding whitespace
// ignored; Unicode dashes, quotes and spaces read as ASCII), chunks in file order.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace nib::tools {

struct PatchChunk {
  std::optional<std::string> context;  // the @@ line's text: the search starts after it
  std::vector<std::string> old_lines;  // context and removed lines, in order
  std::vector<std::string> new_lines;  // context and added lines, in order
  bool end_of_file = false;            // `*** End of File`: the lines end the file
};

struct PatchOperation {
  enum class Kind { kAdd, kDelete, kUpdate };
  Kind kind = Kind::kAdd;
  std::string path;                    // as written
  std::optional<std::string> move_to;  // an update's new path, as written
  std::string contents;                // an added file's text ("\n" after every line)
  std::vector<PatchChunk> chunks;      // an update's
  std::size_t line = 0;                // where it starts in the patch, 1-based
};

// The operations of `patch`, in order; a failure says what is wrong and where, in Codex's words
// ("invalid patch: ...", "invalid hunk at line N, ...").
util::Result<std::vector<PatchOperation>> parse_patch(std::string_view patch);

// The line end `text` mostly uses: "\r\n" when its CRLF ends outnumber its LF ends, else "\n"
// (a tie, or no line end at all).
std::string_view dominant_line_end(std::string_view text);

// `text` (a file's whole content) with `chunks` applied. Lines are matched without their line
// ends; the result uses the file's own (the majority of its line ends; "\n" for a file with
// none) and ends with one. A failure names `shown` and the lines or context not found.
util::Result<std::string> apply_chunks(std::string_view text, const std::vector<PatchChunk>& chunks,
                                       const std::string& shown);

}  // namespace nib::tools
