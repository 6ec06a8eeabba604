#include "tools/grep_window.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "tools/grep_pattern.hpp"
#include "util/utf8.hpp"

namespace nib::tools {
namespace {

constexpr std::size_t kNone = std::string_view::npos;

// Repetition counts are expanded into positions up to this many in all; after that a repeated
// atom only ends the run, so that a pattern like \d{1000}\d{1000}... is read in bounded time.
constexpr std::size_t kMaxExpandedPositions = 4096;

// Groups nested deeper than this end the run instead of being read, which bounds the rereading
// of a group's text at each level.
constexpr std::size_t kMaxGroupDepth = 8;

ByteSet byte_range(unsigned char low, unsigned char high) {
  ByteSet set;
  for (unsigned byte = low; byte <= high; ++byte) set.set(byte);
  return set;
}

ByteSet single_byte(unsigned char byte) {
  ByteSet set;
  set.set(byte);
  return set;
}

// The byte an escape \c stands for when it stands for one ASCII character: punctuation escapes
// itself; \t and the like are control characters.
std::optional<unsigned char> escaped_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte < 0x80 && !std::isalnum(byte)) return byte;
  switch (c) {
    case 'a':
      return '\a';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'v':
      return '\v';
    default:
      return std::nullopt;
  }
}

// The bytes of the Perl class \c (\d, \w, \s), which RE2 keeps to ASCII.
std::optional<ByteSet> perl_class(char c) {
  switch (c) {
    case 'd':
      return byte_range('0', '9');
    case 'w':
      return byte_range('0', '9') | byte_range('A', 'Z') | byte_range('a', 'z') | single_byte('_');
    case 's':
      return single_byte('\t') | single_byte('\n') | single_byte('\f') | single_byte('\r') |
             single_byte(' ');
    default:
      return std::nullopt;
  }
}

// One member of a character class: a byte, or the set of an escape like \d.
struct ClassMember {
  ByteSet set;
  std::optional<unsigned char> byte;  // when the member is one byte, which may start a range
};

// The member at pattern[i], advancing i past it; nullopt for one that is not read here (a
// character beyond ASCII, [:alpha:], \pL, \D, ...).
std::optional<ClassMember> read_member(std::string_view pattern, std::size_t& i) {
  const auto c = static_cast<unsigned char>(pattern[i]);
  if (c >= 0x80 || (c == '[' && i + 1 < pattern.size() && pattern[i + 1] == ':')) {
    return std::nullopt;
  }
  if (c != '\\') {
    ++i;
    return ClassMember{single_byte(c), c};
  }
  if (i + 1 >= pattern.size()) return std::nullopt;
  const char escaped = pattern[i + 1];
  i += 2;
  if (const auto byte = escaped_byte(escaped)) return ClassMember{single_byte(*byte), *byte};
  if (const auto set = perl_class(escaped)) return ClassMember{*set, std::nullopt};
  return std::nullopt;
}

// The bytes of the class [...] at pattern[start], which ends before `end` (from skip_class()),
// or nullopt when it may match a character of more than one byte (negated, or members beyond
// ASCII) or uses syntax not read here.
std::optional<ByteSet> class_set(std::string_view pattern, std::size_t start, std::size_t end) {
  const std::size_t close = end - 1;  // the ']'
  std::size_t i = start + 1;
  if (pattern[i] == '^') return std::nullopt;
  ByteSet set;
  while (i < close) {
    const auto member = read_member(pattern, i);
    if (!member) return std::nullopt;
    // A '-' between two bytes makes a range; first or last in the class, it is itself.
    if (member->byte && i + 1 < close && pattern[i] == '-') {
      ++i;
      const auto high = read_member(pattern, i);
      if (!high || !high->byte || *high->byte < *member->byte) return std::nullopt;
      set |= byte_range(*member->byte, *high->byte);
    } else {
      set |= member->set;
    }
  }
  return set;
}

// Whether pattern[begin, end) has an alternation at its top level (a '|' outside groups and
// classes), or may have one: when its syntax is not understood.
bool has_alternation(std::string_view pattern, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end;) {
    if (pattern[i] == '|') return true;
    i = pattern[i] == '(' ? skip_group(pattern, i) : skip_escape_or_class(pattern, i);
    if (i == kNone) return true;
  }
  return false;
}

// One atom of a pattern as the window reader sees it.
struct Atom {
  enum class Kind {
    kBytes,      // matches one byte from each of `bytes`, in order
    kZeroWidth,  // an assertion such as ^ or \b: what is before and after it stays adjacent
    kBreak,      // matches something of unknown length: the run of positions ends
  };
  Kind kind = Kind::kBreak;
  std::vector<ByteSet> bytes;
};

Atom bytes_atom(std::vector<ByteSet> bytes) {
  return Atom{Atom::Kind::kBytes, std::move(bytes)};
}

// Reads a pattern's sequences into runs of positions and keeps the best window among them.
class WindowReader {
 public:
  explicit WindowReader(bool fold) : fold_(fold) {}

  // Reads pattern[begin, end), a sequence inside `depth` groups; false: give up on the pattern.
  bool read(std::string_view pattern, std::size_t begin, std::size_t end, std::size_t depth);

  std::optional<ClassWindow> best() const {
    if (best_.positions.empty()) return std::nullopt;
    return best_;
  }

 private:
  bool read_group(std::string_view pattern, std::size_t& i, std::size_t end, std::size_t depth);
  // The atom at pattern[i], advancing i past it; nullopt: give up on the pattern.
  std::optional<Atom> read_atom(std::string_view pattern, std::size_t& i) const;
  // Case folding as RE2 does it: false when a byte in `set` folds with a character beyond ASCII.
  bool fold(ByteSet& set) const;
  void add(const Atom& atom, std::size_t minimum, std::size_t maximum);
  void append(const std::vector<ByteSet>& bytes, std::size_t times);
  void end_run() {
    run_.clear();
    run_frequencies_.clear();
  }

  bool fold_;
  // The run's last positions (at most kMaxWindowPositions) and their frequencies.
  std::vector<ByteSet> run_;
  std::vector<double> run_frequencies_;
  std::size_t expanded_ = 0;
  ClassWindow best_;
  double best_frequency_ = std::numeric_limits<double>::infinity();
};

bool WindowReader::read(std::string_view pattern, std::size_t begin, std::size_t end,
                        std::size_t depth) {
  // Quantifiers are read from here on without looking past the sequence's end.
  const std::string_view bounded = pattern.substr(0, end);
  for (std::size_t i = begin; i < end;) {
    if (pattern[i] == '(') {
      if (!read_group(bounded, i, end, depth)) return false;
      continue;
    }
    const auto atom = read_atom(bounded, i);
    if (!atom) return false;
    if (i < end && is_quantifier_start(pattern[i])) {
      const auto quantifier = read_quantifier(bounded, i);
      if (!quantifier) return false;
      add(*atom, quantifier->minimum, quantifier->maximum);
      i = quantifier->end;
    } else {
      add(*atom, 1, 1);
    }
  }
  return true;
}

bool WindowReader::read_group(std::string_view pattern, std::size_t& i, std::size_t end,
                              std::size_t depth) {
  std::size_t content = i + 1;
  if (content < end && pattern[content] == '?') {
    const std::string_view rest = pattern.substr(content);
    if (rest.starts_with("?:")) {
      content += 2;
    } else if (rest.starts_with("?P<") || rest.starts_with("?<")) {  // a named group
      content = pattern.find('>', content);
      if (content == kNone) return false;
      ++content;
    } else {
      return false;  // inline flags such as (?i) change how the rest matches
    }
  }
  const std::size_t close = skip_group(pattern, i);
  if (close == kNone || close > end || content >= close) return false;
  const std::size_t content_end = close - 1;  // the ')'
  std::optional<Quantifier> quantifier;
  if (close < end && is_quantifier_start(pattern[close])) {
    quantifier = read_quantifier(pattern, close);
    if (!quantifier) return false;
  }
  i = quantifier ? quantifier->end : close;
  if (depth >= kMaxGroupDepth || has_alternation(pattern, content, content_end) ||
      (quantifier && quantifier->minimum == 0)) {
    end_run();
    return true;
  }
  // A plain group is part of the sequence around it.
  if (!quantifier) return read(pattern, content, content_end, depth + 1);
  // A repeated one holds its runs at least once, but apart from what surrounds it.
  end_run();
  if (!read(pattern, content, content_end, depth + 1)) return false;
  end_run();
  return true;
}

std::optional<Atom> WindowReader::read_atom(std::string_view pattern, std::size_t& i) const {
  const char c = pattern[i];
  if (ends_atom_reading(c)) return std::nullopt;
  switch (c) {
    case '^':
    case '$':
      ++i;
      return Atom{Atom::Kind::kZeroWidth, {}};
    case '.':  // any character, of one to four bytes
      ++i;
      return Atom{};
    case '[': {
      const std::size_t end = skip_class(pattern, i);
      if (end == kNone) return std::nullopt;
      auto set = class_set(pattern, i, end);
      i = end;
      if (!set || !fold(*set)) return Atom{};
      return bytes_atom({*set});
    }
    case '\\': {
      if (i + 1 >= pattern.size()) return std::nullopt;
      const char escaped = pattern[i + 1];
      i += 2;
      if (std::string_view("bBAz").find(escaped) != kNone) return Atom{Atom::Kind::kZeroWidth, {}};
      if (std::string_view("DWS").find(escaped) != kNone) return Atom{};  // beyond ASCII too
      std::optional<ByteSet> set = perl_class(escaped);
      if (const auto byte = escaped_byte(escaped)) set = single_byte(*byte);
      if (!set) return std::nullopt;  // \x41, \pL, \Q...\E and the like: not read here
      if (!fold(*set)) return Atom{};
      return bytes_atom({*set});
    }
    default: {
      const std::size_t length = util::utf8_sequence_length(pattern, i);
      if (length == 0) return std::nullopt;
      const std::string_view character = pattern.substr(i, length);
      i += length;
      if (length == 1) {
        ByteSet set = single_byte(static_cast<unsigned char>(c));
        if (!fold(set)) return Atom{};
        return bytes_atom({set});
      }
      // Beyond ASCII, folding may pair characters of different lengths (ſ and s).
      if (fold_) return Atom{};
      std::vector<ByteSet> bytes;
      for (const char byte : character)
        bytes.push_back(single_byte(static_cast<unsigned char>(byte)));
      return bytes_atom(std::move(bytes));
    }
  }
}

bool WindowReader::fold(ByteSet& set) const {
  if (!fold_) return true;
  for (char letter = 'A'; letter <= 'Z'; ++letter) {
    const auto upper = static_cast<unsigned char>(letter);
    const auto lower = static_cast<unsigned char>(ascii_lower(letter));
    if (!set[upper] && !set[lower]) continue;
    if (folds_beyond_ascii(letter)) return false;
    set.set(upper);
    set.set(lower);
  }
  return true;
}

void WindowReader::add(const Atom& atom, std::size_t minimum, std::size_t maximum) {
  switch (atom.kind) {
    case Atom::Kind::kZeroWidth:
      return;
    case Atom::Kind::kBreak:
      end_run();
      return;
    case Atom::Kind::kBytes:
      break;
  }
  if (minimum == maximum) {
    append(atom.bytes, minimum);
  } else if (minimum > 0) {
    // X{2,} after P and before Y: every match holds "P X X" and "X X Y", but not both at once.
    append(atom.bytes, minimum);
    end_run();
    append(atom.bytes, minimum);
  } else {
    end_run();
  }
}

void WindowReader::append(const std::vector<ByteSet>& bytes, std::size_t times) {
  if (times > (kMaxExpandedPositions - expanded_) / std::max<std::size_t>(bytes.size(), 1)) {
    end_run();
    return;
  }
  expanded_ += times * bytes.size();
  for (std::size_t time = 0; time < times; ++time) {
    for (const ByteSet& set : bytes) {
      run_.push_back(set);
      run_frequencies_.push_back(set_frequency(set));
      if (run_.size() > kMaxWindowPositions) {
        run_.erase(run_.begin());
        run_frequencies_.erase(run_frequencies_.begin());
      }
      // The window ending here, as long as allowed: each position only makes it rarer.
      double frequency = 1;
      for (const double position : run_frequencies_) frequency *= position;
      if (frequency < best_frequency_) {
        best_frequency_ = frequency;
        best_.positions = run_;
      }
    }
  }
}

}  // namespace

double set_frequency(const ByteSet& set) {
  double frequency = 0;
  for (unsigned byte = 0; byte < 256; ++byte) {
    if (set[byte]) frequency += byte_frequency(static_cast<unsigned char>(byte));
  }
  return frequency;
}

double window_frequency(const ClassWindow& window) {
  double frequency = 1;
  for (const ByteSet& set : window.positions) frequency *= set_frequency(set);
  return frequency;
}

double literal_frequency(std::string_view literal, bool fold_ascii_case) {
  double frequency = 1;
  for (const char c : literal) {
    double position = byte_frequency(static_cast<unsigned char>(c));
    if (fold_ascii_case && is_ascii_letter(c)) {
      position = byte_frequency(static_cast<unsigned char>(ascii_lower(c))) +
                 byte_frequency(static_cast<unsigned char>(ascii_upper(c)));
    }
    frequency *= position;
  }
  return frequency;
}

std::optional<ClassWindow> required_window(std::string_view pattern, bool ignore_case) {
  WindowReader reader(ignore_case);
  if (!reader.read(pattern, 0, pattern.size(), 0)) return std::nullopt;
  return reader.best();
}

}  // namespace nib::tools
