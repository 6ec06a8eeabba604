#pragma once
// Glob patterns over '/'-separated relative paths, with gitignore's meaning:
//   *        any run of characters except '/'
//   ?        one character except '/'
//   [...]    one character (not '/') from a class: ranges "a-z", negation "[!...]" or "[^...]",
//            POSIX classes "[:alpha:]" and friends; "]" first in the class is literal
//   **       as a whole path segment: "**/x" x in any directory (or none), "x/**" everything
//            below x, "a/**/b" zero or more directories between a and b; "**" alone matches
//            everything. Elsewhere "**" is the same as "*".
//   \c       the character c itself
// A "[" without its "]" is literal. Matching is case-sensitive and works on bytes.
//
// Matching is linear in (pattern length x text length) at worst: a pattern written by a model
// cannot make it backtrack exponentially. Common shapes ("name", "*.ext", "prefix*") take a
// fast path. Thread-safety: a Glob is immutable after construction; match() may be called from
// any number of threads at once.

#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nib::tools {

class Glob {
 public:
  // Compiles `pattern`. Never fails: anything malformed is taken literally.
  explicit Glob(std::string_view pattern);

  // Whether the whole of `text` matches the pattern.
  bool match(std::string_view text) const;

  // The pattern as given.
  const std::string& pattern() const { return pattern_; }

  // The exact text the pattern matches when it has no wildcards (escapes removed), else empty.
  // Lets a caller look such patterns up in a hash table instead of matching them one by one.
  std::string_view literal() const {
    return shape_ == Shape::kLiteral ? std::string_view(fixed_) : std::string_view();
  }

  // For a pattern "*" + text without wildcards or '/', that text (for "*.rs": ".rs"), else empty.
  std::string_view suffix() const {
    return shape_ == Shape::kSuffix ? std::string_view(fixed_) : std::string_view();
  }

 private:
  enum class Shape : std::uint8_t {
    kLiteral,   // fixed_
    kSuffix,    // "*" + fixed_
    kPrefix,    // fixed_ + "*"
    kAnything,  // "**"
    kSegments,  // tokens_ without "**": matched one '/'-separated segment at a time
    kGeneral,   // tokens_ with "**": matched by an automaton
  };
  enum class Op : std::uint8_t {
    kChar,      // the byte `c`
    kAny,       // any byte but '/'
    kClass,     // a byte of classes_[index] (never '/')
    kStar,      // any run of bytes but '/'
    kDirsHead,  // first state of "**/": (any run of bytes ending in '/') or nothing
    kDirsTail,  // second state of "**/": inside that run
    kRest,      // any run of bytes, '/' included
  };
  struct Token {
    Op op;
    unsigned char c = 0;
    std::uint16_t index = 0;
  };

  void compile();
  // Whether `text` passes the quick literal and length checks every match must pass.
  bool may_match(std::string_view text) const;
  // Whether tokens_[first, last) match all of `segment` (which holds no '/').
  bool match_segment(std::size_t first, std::size_t last, std::string_view segment) const;
  bool match_segments(std::string_view text) const;
  bool match_automaton(std::string_view text) const;

  std::string pattern_;
  Shape shape_ = Shape::kGeneral;
  std::string fixed_;
  std::vector<Token> tokens_;
  std::vector<std::bitset<256>> classes_;
  // For kSegments and kGeneral: what every match starts with, ends with and holds between them
  // (literal text), and how many bytes it has at least.
  std::string head_;
  std::string tail_;
  std::string inner_;
  std::size_t min_length_ = 0;
};

// Glob(pattern).match(text), for one-off use.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace nib::tools
