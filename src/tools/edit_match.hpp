#pragma once
// Where each of an edit's oldTexts is in a file, and why not when it cannot be placed.
//
// Texts are located in the file's view (see text_view.hpp): the text the model was shown.
// Every oldText must occur exactly once. An exact occurrence is looked for first; when there is
// none, a tolerant one: each line compared with its indentation and trailing whitespace removed,
// curly quotes as straight ones, Unicode dashes as "-" and non-breaking and other Unicode spaces
// as " ". The tolerant form only locates: the span found is a range of the original view, and
// the caller splices the replacement into the original bytes, so nothing outside the span
// changes.
//
// What is inserted after a tolerant match: newText as given, except for indentation. When the
// match starts at the beginning of a line whose indentation differs from that of oldText's
// first line, the span is widened to the start of that line and every newText line that starts
// with oldText's first-line indentation gets the file's indentation instead (other lines are
// kept as written). So a block the model re-typed with two spaces where the file has four, or
// spaces where it has a tab, is replaced at the file's indentation. Quotes, dashes and spaces
// inside newText are never rewritten: the model may mean them.
//
// Pure functions; thread-safe.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tools/limits.hpp"

namespace nib::tools {

struct EditRequest {
  std::string old_text;  // line breaks as "\n"
  std::string new_text;
};

// Where one edit goes, in view offsets.
struct EditMatch {
  std::size_t index = 0;  // position in the request list
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string replacement;  // what replaces [begin, end): newText, re-indented when noted below
  bool tolerant = false;    // found only by the tolerant comparison
  bool reindented = false;  // newText's indentation was changed to the file's
};

// A region of the file, by 1-based line numbers, inclusive.
struct LineRange {
  std::size_t first = 0;
  std::size_t last = 0;
  bool operator==(const LineRange&) const = default;
};

struct EditFailure {
  enum class Kind {
    kEmptyOldText,  // oldText is empty
    kNoChange,      // oldText and newText are the same
    kNotFound,      // neither an exact nor a tolerant occurrence
    kAmbiguous,     // more than one occurrence
    kOverlap,       // this edit's span overlaps that of edit `other`
  };
  Kind kind = Kind::kNotFound;
  std::size_t index = 0;  // the failing edit's position in the request list
  // kAmbiguous: how many occurrences, the first lines of the first few, and whether they were
  // found only by the tolerant comparison.
  std::size_t count = 0;
  std::vector<std::size_t> lines;
  bool tolerant = false;
  // kNotFound: the region most like oldText, when one is similar enough.
  std::optional<LineRange> candidate;
  // kOverlap: the other edit and the first line both touch.
  std::size_t other = 0;
  std::size_t line = 0;
};

// Locates one edit in `view`.
std::variant<EditMatch, EditFailure> locate_edit(std::string_view view, const EditRequest& edit,
                                                 std::size_t index = 0);

// Locates every edit in the same, unchanged `view` and returns the matches sorted by position,
// or the first failure (in request order; overlaps are checked once all are found).
std::variant<std::vector<EditMatch>, EditFailure> locate_edits(
    std::string_view view, const std::vector<EditRequest>& edits);

// The region of `view` most similar to `old_text`, or nullopt when nothing is close: first the
// window where most of oldText's lines occur (compared tolerantly), else the line most like
// oldText's most distinctive line.
std::optional<LineRange> closest_region(std::string_view view, std::string_view old_text);

// The failure written for the model: what was wrong, where, and what to do next. `edit_count`
// is the number of edits in the call (the failing one is named only when there are several).
std::string describe_failure(std::string_view view, const EditFailure& failure,
                             std::size_t edit_count);

}  // namespace nib::tools
