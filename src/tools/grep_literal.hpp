#pragma once
// Literal search for grep. LiteralFinder locates a fixed byte string by comparing 16 positions at
// a time against the needle's two rarest bytes (judged by a fixed table of byte frequencies in
// source code and text) and checking only the positions where both agree, which runs at memory
// speed where a general substring search would not. required_literal() finds a piece of text that
// every match of a regex contains, so a regex search can jump between the lines holding it instead
// of running the regex over everything. Pure functions and immutable objects; thread-safe.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace nib::tools {

// Finds occurrences of one fixed, non-empty byte string. Immutable after construction.
class LiteralFinder {
 public:
  // `needle` must not be empty. With `fold_ascii_case`, ASCII letters match in either case and
  // only the needle's first kMaxPairNeedle bytes are looked for: such a finder is a prefilter,
  // and its needle should come from fold_safe_run().
  explicit LiteralFinder(std::string needle, bool fold_ascii_case = false);

  // The position of the first occurrence of the needle starting at or after `from` in `text`,
  // or std::string_view::npos. Linear in the length of `text` for any input.
  std::size_t find(std::string_view text, std::size_t from) const;

  // The needle as looked for (lowercased when folding case).
  const std::string& needle() const { return needle_; }

 private:
  bool matches_at(const char* start) const;

  std::string needle_;
  bool fold_ = false;
  // Two positions in the needle, holding its rarest bytes: a candidate must match both before
  // the whole needle is compared.
  std::size_t first_ = 0;
  std::size_t second_ = 0;
};

// Needles up to this long are found by their two rarest bytes, which costs a compare of the
// needle per candidate; longer ones (case-sensitive) go to memmem, a linear two-way search.
inline constexpr std::size_t kMaxPairNeedle = 32;

// The longest piece of `literal` whose characters fold case within ASCII alone, lowercased:
// no byte above 0x7F, and no k or s, since Unicode folds them with U+212A KELVIN SIGN and U+017F
// LATIN SMALL LETTER LONG S. Every case-insensitive match of `literal` contains this piece,
// matched ASCII-case-insensitively.
std::string fold_safe_run(std::string_view literal);

// A piece of text that every match of `pattern` contains, when one can be read off the pattern
// cheaply and surely: a run of plain characters in a top-level sequence (no alternation at the
// top, no inline flags). Of several runs, the one with the rarest byte wins. nullopt when there is
// none or the pattern uses syntax this reading does not follow; never a literal that a match
// could lack. `pattern` is RE2 syntax that RE2 has accepted, matched case-sensitively.
std::optional<std::string> required_literal(std::string_view pattern);

}  // namespace nib::tools
