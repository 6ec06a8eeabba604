#pragma once
// Unified diffs of a file's text before and after a change, for the UI (a tool's `display`, and
// the change an approval question shows before the call runs).
// The line diff is dtl's; hunks are assembled here so that line numbers, context and the
// "\ No newline at end of file" marker follow GNU diff. Pure; thread-safe.

#include <cstddef>
#include <string>
#include <string_view>

#include "tools/limits.hpp"

namespace nib::tools {

// Unchanged lines shown around each change.
inline constexpr std::size_t kDiffContextLines = 3;

// The unified diff turning `old_text` into `new_text` (lines end with "\n"; a last line may
// lack one), headed "--- <old_label>" and "+++ <new_label>"; empty when the texts are equal.
// Common leading and trailing lines are set aside before diffing, so a small change to a big
// file is cheap. When the differing middle exceeds kMaxDiffLines it is shown as removed and
// re-added rather than diffed line by line; when the diff exceeds kMaxDiffBytes it is cut and
// ends with a note saying so.
std::string unified_diff(std::string_view old_text, std::string_view new_text,
                         std::string_view old_label, std::string_view new_label,
                         std::size_t context = kDiffContextLines);

// The first lines of a unified diff, and how many lines it has beyond them.
struct DiffHead {
  std::string text;
  std::size_t omitted_lines = 0;
};

// The first `max_lines` lines of unified_diff(old_text, new_text, ...) (headers included), each
// cut to kPreviewLineBytes (ending in "…"), and the count of the lines after them: the whole
// diff is counted but only its head is kept, so a huge change costs little memory.
DiffHead unified_diff_head(std::string_view old_text, std::string_view new_text,
                           std::string_view old_label, std::string_view new_label,
                           std::size_t max_lines, std::size_t context = kDiffContextLines);

}  // namespace nib::tools
