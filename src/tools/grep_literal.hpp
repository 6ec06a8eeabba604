#pragma once
// Literal search for grep. LiteralFinder locates a fixed byte string by scanning with memchr for
// the needle's rarest byte (judged by a fixed table of byte frequencies in source code and text)
// and checking each candidate, which runs at memory speed where a general substring search would
// not. required_literal() finds a piece of text that every match of a regex contains, so a regex
// search can jump between the lines holding it instead of running the regex over everything.
// Pure functions and immutable objects; thread-safe.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace nib::tools {

// Finds occurrences of one fixed, non-empty byte string. Immutable after construction.
class LiteralFinder {
 public:
  // `needle` must not be empty.
  explicit LiteralFinder(std::string needle);

  // The position of the first occurrence of the needle starting at or after `from` in `text`,
  // or std::string_view::npos. Linear in the length of `text` for any input.
  std::size_t find(std::string_view text, std::size_t from) const;

  const std::string& needle() const { return needle_; }

 private:
  std::string needle_;
  std::size_t rare_index_ = 0;  // the needle byte memchr looks for
};

// A piece of text that every match of `pattern` contains, when one can be read off the pattern
// cheaply and surely: a run of plain characters in a top-level sequence (no alternation at the
// top, no inline flags). Of several runs, the one with the rarest byte wins. nullopt when there is
// none or the pattern uses syntax this reading does not follow; never a literal that a match
// could lack. `pattern` is RE2 syntax that RE2 has accepted, matched case-sensitively.
std::optional<std::string> required_literal(std::string_view pattern);

}  // namespace nib::tools
