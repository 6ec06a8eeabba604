#pragma once
// Helpers shared by the grep matcher tests: compiling a LineMatcher that must compile, and
// listing the lines it finds. Pure; thread-safe.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "tools/grep_search.hpp"

namespace nib::tools {

// `pattern` compiled with `options`; a compile error fails the test.
inline LineMatcher compile(const std::string& pattern, MatchOptions options = {}) {
  auto matcher = LineMatcher::compile(pattern, options);
  EXPECT_TRUE(matcher.ok()) << matcher.error();
  return std::move(matcher.value());
}

// The numbers of the lines of `text` that `matcher` finds, searching the whole text at once.
inline std::vector<std::size_t> matching_lines(const LineMatcher& matcher, std::string_view text) {
  std::vector<std::size_t> numbers;
  std::size_t pos = 0;
  while (auto match = matcher.find(text, pos)) {
    numbers.push_back(
        static_cast<std::size_t>(std::count(text.begin(), text.begin() + match->begin, '\n')) + 1);
    const std::size_t end = text.find('\n', match->begin);
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return numbers;
}

}  // namespace nib::tools
