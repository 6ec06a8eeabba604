#include "tools/glob.hpp"

#include <algorithm>
#include <array>
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
  if (shape_ != Shape::kGeneral) tokens_.clear();
  if (shape_ == Shape::kGeneral) fixed_.clear();
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
    case Shape::kGeneral:
      break;
  }
  return match_general(text);
}

// A breadth-first run of the pattern's automaton: state i means "tokens before i are matched".
// All epsilon moves go forwards, so one ascending pass closes a state set.
bool Glob::match_general(std::string_view text) const {
  const std::size_t count = tokens_.size();
  constexpr std::size_t kInlineStates = 128;
  std::array<unsigned char, 2 * kInlineStates> inline_states{};
  std::vector<unsigned char> heap_states;
  unsigned char* current = inline_states.data();
  if (count + 1 > kInlineStates) {
    heap_states.assign(2 * (count + 1), 0);
    current = heap_states.data();
  }
  unsigned char* next = current + count + 1;

  const auto close = [&](unsigned char* set) {
    for (std::size_t i = 0; i < count; ++i) {
      if (!set[i]) continue;
      const Op op = tokens_[i].op;
      if (op == Op::kStar || op == Op::kRest) set[i + 1] = 1;
      if (op == Op::kDirsHead) set[i + 2] = 1;
    }
  };
  current[0] = 1;
  close(current);
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    std::fill(next, next + count + 1, 0);
    bool alive = false;
    for (std::size_t i = 0; i < count; ++i) {
      if (!current[i]) continue;
      const Token& token = tokens_[i];
      std::size_t to = count + 1;  // none
      switch (token.op) {
        case Op::kChar:
          if (byte == token.c) to = i + 1;
          break;
        case Op::kAny:
          if (byte != '/') to = i + 1;
          break;
        case Op::kClass:
          if (classes_[token.index][byte]) to = i + 1;
          break;
        case Op::kStar:
          if (byte != '/') to = i;
          break;
        case Op::kDirsHead:
        case Op::kDirsTail: {
          const std::size_t tail = token.op == Op::kDirsHead ? i + 1 : i;
          next[tail] = 1;
          if (byte == '/') next[tail + 1] = 1;
          alive = true;
          break;
        }
        case Op::kRest:
          to = i;
          break;
      }
      if (to <= count) {
        next[to] = 1;
        alive = true;
      }
    }
    if (!alive) return false;
    close(next);
    std::swap(current, next);
  }
  return current[count] != 0;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  return Glob(pattern).match(text);
}

}  // namespace nib::tools
