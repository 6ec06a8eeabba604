#pragma once
// Unified diffs of a file's text before and after a change, for the UI (a tool's `display`).
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

}  // namespace nib::tools
