#pragma once
// Class windows for grep. A regex built from character classes, like [0-9]{4}-[0-9]{2}, holds no
// literal worth searching for, but every match of it holds a run of bytes each drawn from a known
// set: a "window" (here "dddd-dd", d any digit). required_window() reads the most selective such
// window off a pattern; ClassWindowFinder finds where a window occurs by testing its two or three
// rarest positions for 16 starts at a time and checking the other positions only where those
// agree, so that a search can jump between candidate lines instead of running the regex over
// every byte (grep_window.cpp reads windows, grep_window_finder.cpp finds them). Pure functions
// and immutable objects; thread-safe.

#include <array>
#include <bitset>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace nib::tools {

// A set of byte values.
using ByteSet = std::bitset<256>;

// A fixed-length sequence of byte sets: it occurs at p in a text when text[p + i] is in
// positions[i] for every i.
struct ClassWindow {
  std::vector<ByteSet> positions;

  bool operator==(const ClassWindow&) const = default;
};

// Windows are at most this long: the vector test looks at a few positions, and more positions
// only refine the check of the rare candidates it passes.
inline constexpr std::size_t kMaxWindowPositions = 16;

// The estimated share of the bytes of a typical text that are in `set` (by byte_frequency()).
double set_frequency(const ByteSet& set);

// The estimated share of the positions of a typical text where `window` occurs: the product over
// its positions' set_frequency(), as if bytes were independent; they are not (digits come in
// runs), so this is a lower bound in practice.
double window_frequency(const ClassWindow& window);

// The same estimate for a fixed byte string, letters counting in both cases when folding case.
double literal_frequency(std::string_view literal, bool fold_ascii_case);

// The most selective window (at most kMaxWindowPositions long, by window_frequency()) that every
// match of `pattern` contains, when one can be read off surely: runs of atoms that each match
// exactly one byte (an ASCII character, an escaped punctuation character, \d \w \s, a class of
// ASCII characters) in sequences without alternation at the top; zero-width assertions are
// stepped over, and repetitions, groups with alternatives and anything that may match a
// character of several bytes (., negated classes, \D) end a run. nullopt when there is none or
// the pattern uses syntax this reading does not follow (inline flags, \pL, \x41, ...); never a
// window that a match could lack. `pattern` is RE2 syntax that RE2 has accepted (UTF-8), matched
// case-insensitively (Unicode folding, as RE2 does it) when `ignore_case` is set.
std::optional<ClassWindow> required_window(std::string_view pattern, bool ignore_case = false);

// Finds occurrences of one window. Immutable after construction.
class ClassWindowFinder {
 public:
  // `window` holds 1 to kMaxWindowPositions positions.
  explicit ClassWindowFinder(ClassWindow window);

  // The first position at or after `from` where the window occurs in `text`, or npos. Linear in
  // the length of `text` for any input.
  std::size_t find(std::string_view text, std::size_t from) const;

  // The estimated share of the positions of a typical text that pass the vector test and have
  // the rest of the window checked (as window_frequency(), for the tested positions alone).
  double candidate_frequency() const { return candidate_frequency_; }

  const ClassWindow& window() const { return window_; }

  // The vector test compares at most kMaxProbes positions, each a set of at most
  // kMaxProbeRanges byte ranges: a set of more costs more to test than it saves (\w has four).
  static constexpr std::size_t kMaxProbes = 3;
  static constexpr std::size_t kMaxProbeRanges = 3;

 private:
  // A position tested for 16 starts at a time: its byte set as ranges [low, low + width].
  struct Probe {
    std::size_t offset = 0;
    std::size_t ranges = 0;
    std::array<unsigned char, kMaxProbeRanges> low{};
    std::array<unsigned char, kMaxProbeRanges> width{};
  };

  // Whether the window occurs at `start`, checking the positions order_[first...].
  bool matches_at(const char* start, std::size_t first) const;

  ClassWindow window_;
  std::array<Probe, kMaxProbes> probes_{};
  std::size_t probe_count_ = 0;
  // Every offset of the window: the probes' first, then the rest, rarest first.
  std::vector<std::size_t> order_;
  double candidate_frequency_ = 1;
};

}  // namespace nib::tools
