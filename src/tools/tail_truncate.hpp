#pragma once
// Keeping the end of a long text: the lines a command printed last are usually the ones that
// matter (the failing test, the error). Pure functions; thread-safe.

#include <cstddef>
#include <string_view>

namespace nib::tools {

// Number of lines in `text`: newlines, plus one for a last line without a newline.
std::size_t count_lines(std::string_view text);

struct TailCut {
  std::size_t start = 0;       // offset in the text of the first byte kept
  std::size_t lines_kept = 0;  // lines from `start` to the end
  bool cut = false;            // start > 0: something before it was left out
  bool partial_line = false;   // the first kept line is only the end of a longer line
};

// The longest suffix of `text` (which starts at a line start) that holds at most `max_lines`
// lines and `max_bytes` bytes and starts at a line start. When the last line alone is longer
// than `max_bytes`, keeps its end instead, starting at a UTF-8 sequence boundary.
TailCut cut_tail(std::string_view text, std::size_t max_lines, std::size_t max_bytes);

}  // namespace nib::tools
