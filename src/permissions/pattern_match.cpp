#include "permissions/pattern_match.hpp"

#include <cstddef>

namespace nib::permissions {
namespace {

constexpr int kStar = -1;      // pattern: any run
constexpr int kOpaque = -2;    // text: a run known only when the command runs
constexpr int kQuestion = -3;  // path pattern: one character but '/'
constexpr int kAnyDirs = -4;   // path pattern "**/": nothing, or anything ending in '/'
constexpr int kAnyBelow = -5;  // path pattern final "/**": nothing, or '/' and anything
constexpr int kAnything = -6;  // path pattern "**" elsewhere

int byte(char c) {
  return static_cast<unsigned char>(c);
}

std::vector<int> command_tokens(std::string_view pattern) {
  std::vector<int> tokens;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\' && i + 1 < pattern.size() && pattern[i + 1] == '*') {
      tokens.push_back('*');
      ++i;
    } else if (pattern[i] == '*') {
      if (tokens.empty() || tokens.back() != kStar) tokens.push_back(kStar);
    } else {
      tokens.push_back(byte(pattern[i]));
    }
  }
  return tokens;
}

std::vector<int> text_tokens(std::string_view text, const std::vector<bool>& opaque) {
  std::vector<int> tokens;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool hidden = i < opaque.size() && opaque[i];
    if (!hidden) {
      tokens.push_back(byte(text[i]));
    } else if (tokens.empty() || tokens.back() != kOpaque) {
      tokens.push_back(kOpaque);
    }
  }
  return tokens;
}

// matches[i][j]: pattern[i:] matches text[j:], computed from the ends, one row at a time.
bool tokens_match(const std::vector<int>& pattern, const std::vector<int>& text, bool possibly) {
  const std::size_t m = pattern.size(), n = text.size();
  std::vector<char> next(n + 1, 0), row(n + 1, 0);
  next[n] = 1;  // both empty
  for (std::size_t j = n; j-- > 0;) next[j] = possibly && text[j] == kOpaque && next[j + 1];
  for (std::size_t i = m; i-- > 0;) {
    for (std::size_t j = n + 1; j-- > 0;) {
      const int p = pattern[i];
      bool match = false;
      if (p == kStar) match = next[j] || (j < n && row[j + 1]);
      if (j < n && text[j] == kOpaque && possibly) match = match || row[j + 1] || next[j];
      if (j < n && p >= 0 && text[j] == p) match = match || next[j + 1];
      row[j] = match;
    }
    next.swap(row);
  }
  return next[0];
}

std::vector<int> path_tokens(std::string_view base, std::string_view pattern) {
  std::vector<int> tokens;
  for (char c : base) tokens.push_back(byte(c));
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '*' && i + 1 < pattern.size() && pattern[i + 1] == '*') {
      const bool segment_start = i == 0 || pattern[i - 1] == '/';
      const bool then_slash = i + 2 < pattern.size() && pattern[i + 2] == '/';
      const bool at_end = i + 2 == pattern.size();
      if (segment_start && then_slash) {
        tokens.push_back(kAnyDirs);
        i += 2;
      } else if (segment_start && at_end && !tokens.empty() && tokens.back() == '/') {
        tokens.back() = kAnyBelow;
        ++i;
      } else {
        tokens.push_back(kAnything);
        ++i;
      }
    } else if (c == '*') {
      tokens.push_back(kStar);
    } else if (c == '?') {
      tokens.push_back(kQuestion);
    } else {
      tokens.push_back(byte(c));
    }
  }
  return tokens;
}

bool path_tokens_match(const std::vector<int>& pattern, std::string_view path) {
  const std::size_t m = pattern.size(), n = path.size();
  std::vector<char> next(n + 1, 0), row(n + 1, 0);
  next[n] = 1;
  for (std::size_t i = m; i-- > 0;) {
    const int p = pattern[i];
    for (std::size_t j = n + 1; j-- > 0;) {
      bool match = false;
      switch (p) {
        case kStar:
          match = next[j] || (j < n && path[j] != '/' && row[j + 1]);
          break;
        case kQuestion:
          match = j < n && path[j] != '/' && next[j + 1];
          break;
        case kAnything:
          match = next[j] || (j < n && row[j + 1]);
          break;
        case kAnyBelow:
          match = (j == n || path[j] == '/') && next[n];
          break;
        case kAnyDirs:
          // Nothing, or a run ending in '/': row[k] for the runs that end before k.
          match = next[j];
          for (std::size_t k = j; !match && k < n; ++k) match = path[k] == '/' && next[k + 1];
          break;
        default:
          match = j < n && byte(path[j]) == p && next[j + 1];
      }
      row[j] = match;
    }
    next.swap(row);
  }
  return next[0];
}

}  // namespace

bool command_pattern_matches(std::string_view pattern, std::string_view text,
                             const std::vector<bool>& opaque, bool possibly) {
  return tokens_match(command_tokens(pattern), text_tokens(text, opaque), possibly);
}

bool path_pattern_matches(std::string_view base, std::string_view pattern, std::string_view path) {
  return path_tokens_match(path_tokens(base, pattern), path);
}

}  // namespace nib::permissions
