#include "tools/glob.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <optional>

namespace nib::tools {
namespace {

// The bytes a POSIX class name ("alpha" in "[:alpha:]") stands for, or nullopt if unknown.
std::optional<std::bitset<256>> posix_class(std::string_view name) {
  int (*test)(int) = nullptr;
  if (name == "alnum") test = [](int c) { return std::isalnum(c); };
  if (name == "alpha") test = [](int c) { return std::isalpha(c); };
  if (name == "blank") test = [](int c) { return std::isblank(c); };
  if (name == "cntrl") test = [](int c) { return std::iscntrl(c); };
  if (name == "digit") test = [](int c) { return std::isdigit(c); };
  if (name == "graph") test = [](int c) { return std::isgraph(c); };
  if (name == "lower") test = [](int c) { return std::islower(c); };
  if (name == "print") test = [](int c) { return std::isprint(c); };
  if (name == "punct") test = [](int c) { return std::ispunct(c); };
  if (name == "space") test = [](int c) { return std::isspace(c); };
  if (name == "upper") test = [](int c) { return std::isupper(c); };
  if (name == "xdigit") test = [](int c) { return std::isxdigit(c); };
  if (test == nullptr) return std::nullopt;
  std::bitset<256> set;
  // Only ASCII: the C locale's answer, whatever locale the process runs in.
  for (int c = 0; c < 128; ++c) set[c] = test(c) != 0;
  return set;
}

// Parses the class starting at pattern[start] == '['. Returns the set and the index just past
// its ']', or nullopt when the class is not closed (the '[' is then literal).
std::optional<std::pair<std::bitset<256>, std::size_t>> parse_class(std::string_view pattern,
                                                                    std::size_t start) {
  std::size_t i = start + 1;
  bool negated = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
    negated = true;
    ++i;
  }
  std::bitset<256> set;
  bool first = true;
  while (i < pattern.size() && (pattern[i] != ']' || first)) {
    first = false;
    if (pattern.substr(i, 2) == "[:") {
      const std::size_t close = pattern.find(":]", i + 2);
      if (close != std::string_view::npos) {
        if (const auto named = posix_class(pattern.substr(i + 2, close - i - 2))) {
          set |= *named;
          i = close + 2;
          continue;
        }
      }
    }
    // One (possibly escaped) byte, perhaps the start of a range.
    const auto take = [&](std::size_t& at) {
      if (pattern[at] == '\\' && at + 1 < pattern.size()) ++at;
      return static_cast<unsigned char>(pattern[at++]);
    };
    const unsigned char low = take(i);
    if (i + 1 < pattern.size() && pattern[i] == '-' && pattern[i + 1] != ']') {
      ++i;
      const unsigned char high = take(i);
      for (unsigned c = low; c <= high; ++c) set[c] = true;
    } else {
      set[low] = true;
    }
  }
  if (i >= pattern.size()) return std::nullopt;
  if (negated) set.flip();
  set['/'] = false;  // like '*' and '?', a class never matches a separator
  return std::make_pair(set, i + 1);
}

}  // namespace

Glob::Glob(std::string_view pattern) : pattern_(pattern) {
  compile();
}

void Glob::compile() {
  const std::string_view p = pattern_;
  for (std::size_t i = 0; i < p.size();) {
    const char c = p[i];
    if (c == '\\') {
      // A trailing backslash escapes nothing and stands for itself.
      tokens_.push_back({Op::kChar, static_cast<unsigned char>(i + 1 < p.size() ? p[i + 1] : c)});
      i += 2;
    } else if (c == '*') {
      std::size_t end = i;
      while (end < p.size() && p[end] == '*') ++end;
      const bool whole_segment =
          end - i >= 2 && (i == 0 || p[i - 1] == '/') && (end == p.size() || p[end] == '/');
      if (whole_segment && end == p.size()) {
        tokens_.push_back({Op::kRest});
        i = end;
      } else if (whole_segment) {
        tokens_.push_back({Op::kDirsHead});
        tokens_.push_back({Op::kDirsTail});
        i = end + 1;  // the '/' belongs to "**/"
      } else {
        if (tokens_.empty() || tokens_.back().op != Op::kStar) tokens_.push_back({Op::kStar});
        i = end;
      }
    } else if (c == '?') {
      tokens_.push_back({Op::kAny});
      ++i;
    } else if (c == '[') {
      if (auto parsed = parse_class(p, i)) {
        tokens_.push_back({Op::kClass, 0, static_cast<std::uint16_t>(classes_.size())});
        classes_.push_back(parsed->first);
        i = parsed->second;
      } else {
        tokens_.push_back({Op::kChar, '['});
        ++i;
      }
    } else {
      tokens_.push_back({Op::kChar, static_cast<unsigned char>(c)});
      ++i;
    }
  }

  // Recognise the shapes that need no automaton.
  const auto is_char = [](const Token& token) { return token.op == Op::kChar; };
  const auto chars = [&](auto first, auto last) {
    std::string text;
    for (auto it = first; it != last; ++it) text += static_cast<char>(it->c);
    return text;
  };
  const bool starts_with_star = !tokens_.empty() && tokens_.front().op == Op::kStar;
  const bool ends_with_star = !tokens_.empty() && tokens_.back().op == Op::kStar;
  if (std::all_of(tokens_.begin(), tokens_.end(), is_char)) {
    shape_ = Shape::kLiteral;
    fixed_ = chars(tokens_.begin(), tokens_.end());
  } else if (tokens_.size() == 1 && tokens_.front().op == Op::kRest) {
    shape_ = Shape::kAnything;
  } else if (starts_with_star && std::all_of(tokens_.begin() + 1, tokens_.end(), is_char)) {
    fixed_ = chars(tokens_.begin() + 1, tokens_.end());
    if (fixed_.find('/') == std::string::npos) shape_ = Shape::kSuffix;
  } else if (ends_with_star && std::all_of(tokens_.begin(), tokens_.end() - 1, is_char)) {
    fixed_ = chars(tokens_.begin(), tokens_.end() - 1);
    shape_ = Shape::kPrefix;
  }
  if (shape_ != Shape::kGeneral) {
    tokens_.clear();
    return;
  }
  fixed_.clear();
  const bool spans_directories = std::any_of(tokens_.begin(), tokens_.end(), [](const Token& t) {
    return t.op == Op::kRest || t.op == Op::kDirsHead;
  });
  if (!spans_directories) shape_ = Shape::kSegments;
  // Cheap tests that reject most texts before the automaton runs: what any match must start
  // and end with, and how many bytes it needs at least.
  const auto leading = std::find_if_not(tokens_.begin(), tokens_.end(), is_char);
  head_ = chars(tokens_.begin(), leading);
  const auto trailing = std::find_if_not(tokens_.rbegin(), tokens_.rend(), is_char).base();
  tail_ = chars(std::max(trailing, leading), tokens_.end());
  // The longest literal run between them, which every match contains somewhere.
  for (auto it = leading; it < std::max(trailing, leading);) {
    const auto run_end = std::find_if_not(it, tokens_.end(), is_char);
    if (run_end - it > static_cast<std::ptrdiff_t>(inner_.size())) inner_ = chars(it, run_end);
    it = std::find_if(run_end, tokens_.end(), is_char);
  }
  min_length_ = std::count_if(tokens_.begin(), tokens_.end(), [](const Token& token) {
    return token.op == Op::kChar || token.op == Op::kAny || token.op == Op::kClass;
  });
}

bool Glob::match(std::string_view text) const {
  switch (shape_) {
    case Shape::kLiteral:
      return text == fixed_;
    case Shape::kSuffix:
      return text.ends_with(fixed_) &&
             text.substr(0, text.size() - fixed_.size()).find('/') == std::string_view::npos;
    case Shape::kPrefix:
      return text.starts_with(fixed_) &&
             text.substr(fixed_.size()).find('/') == std::string_view::npos;
    case Shape::kAnything:
      return true;
    case Shape::kSegments:
      return may_match(text) && match_segments(text);
    case Shape::kGeneral:
      break;
  }
  return may_match(text) && match_automaton(text);
}

bool Glob::may_match(std::string_view text) const {
  if (text.size() < min_length_ || !text.starts_with(head_) || !text.ends_with(tail_)) {
    return false;
  }
  const std::string_view middle =
      text.substr(head_.size(), text.size() - head_.size() - tail_.size());
  return middle.find(inner_) != std::string_view::npos;
}

// The classic wildcard match: on a mismatch, let the last '*' take one more byte and retry.
// Within a segment no token can match '/', so segments are independent, and this is exact.
bool Glob::match_segment(std::size_t first, std::size_t last, std::string_view segment) const {
  const auto single = [&](const Token& token, unsigned char byte) {
    switch (token.op) {
      case Op::kChar:
        return byte == token.c;
      case Op::kAny:
        return true;
      case Op::kClass:
        return static_cast<bool>(classes_[token.index][byte]);
      default:
        return false;
    }
  };
  std::size_t token = first;
  std::size_t at = 0;
  bool star_seen = false;
  std::size_t after_star = 0;  // the token after the last '*' seen...
  std::size_t star_at = 0;     // ...and where in the segment that '*' began to match
  while (at < segment.size()) {
    if (token < last && tokens_[token].op == Op::kStar) {
      star_seen = true;
      after_star = ++token;
      star_at = at;
    } else if (token < last && single(tokens_[token], static_cast<unsigned char>(segment[at]))) {
      ++token;
      ++at;
    } else if (star_seen) {
      token = after_star;
      at = ++star_at;
    } else {
      return false;
    }
  }
  while (token < last && tokens_[token].op == Op::kStar) ++token;
  return token == last;
}

bool Glob::match_segments(std::string_view text) const {
  std::size_t token = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t token_end = token;
    while (token_end < tokens_.size() &&
           !(tokens_[token_end].op == Op::kChar && tokens_[token_end].c == '/')) {
      ++token_end;
    }
    std::size_t end = text.find('/', start);
    if (end == std::string_view::npos) end = text.size();
    if (!match_segment(token, token_end, text.substr(start, end - start))) return false;
    const bool pattern_done = token_end == tokens_.size();
    const bool text_done = end == text.size();
    if (pattern_done || text_done) return pattern_done && text_done;
    token = token_end + 1;
    start = end + 1;
  }
}

// A breadth-first run of the pattern's automaton: state i means "tokens before i are matched".
// State sets are bit sets, and each byte costs work only for the states alive (usually one to
// three), not for every token. All epsilon moves go forwards, so one ascending pass over the
// set bits closes a set.
bool Glob::match_automaton(std::string_view text) const {
  const std::size_t count = tokens_.size();
  const std::size_t words = (count + 1 + 63) / 64;
  constexpr std::size_t kInlineWords = 4;
  std::array<std::uint64_t, 2 * kInlineWords> inline_sets{};
  std::vector<std::uint64_t> heap_sets;
  std::uint64_t* current = inline_sets.data();
  if (words > kInlineWords) {
    heap_sets.assign(2 * words, 0);
    current = heap_sets.data();
  }
  std::uint64_t* next = current + words;

  const auto add = [](std::uint64_t* set, std::size_t state) {
    set[state / 64] |= std::uint64_t{1} << (state % 64);
  };
  // Calls visit(state) for each state in `set`, ascending, including states visit() adds
  // further on.
  const auto for_each = [words](std::uint64_t* set, auto&& visit) {
    for (std::size_t word = 0; word < words; ++word) {
      std::uint64_t seen = 0;
      while (std::uint64_t bits = set[word] & ~seen) {
        const std::uint64_t lowest = bits & (~bits + 1);
        seen |= lowest;
        visit(word * 64 + static_cast<std::size_t>(std::countr_zero(lowest)));
      }
    }
  };
  const auto close = [&](std::uint64_t* set) {
    for_each(set, [&](std::size_t state) {
      if (state == count) return;
      const Op op = tokens_[state].op;
      if (op == Op::kStar || op == Op::kRest) add(set, state + 1);
      if (op == Op::kDirsHead) add(set, state + 2);
    });
  };

  add(current, 0);
  close(current);
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    std::fill(next, next + words, 0);
    for_each(current, [&](std::size_t state) {
      if (state == count) return;
      const Token& token = tokens_[state];
      switch (token.op) {
        case Op::kChar:
          if (byte == token.c) add(next, state + 1);
          break;
        case Op::kAny:
          if (byte != '/') add(next, state + 1);
          break;
        case Op::kClass:
          if (classes_[token.index][byte]) add(next, state + 1);
          break;
        case Op::kStar:
          if (byte != '/') add(next, state);
          break;
        case Op::kDirsHead:
        case Op::kDirsTail: {
          const std::size_t tail = token.op == Op::kDirsHead ? state + 1 : state;
          add(next, tail);
          if (byte == '/') add(next, tail + 1);
          break;
        }
        case Op::kRest:
          add(next, state);
          break;
      }
    });
    if (std::all_of(next, next + words, [](std::uint64_t word) { return word == 0; })) {
      return false;
    }
    close(next);
    std::swap(current, next);
  }
  return (current[count / 64] >> (count % 64)) & 1;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  return Glob(pattern).match(text);
}

}  // namespace nib::tools
