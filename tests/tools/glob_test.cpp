// Tests of the glob matcher: wildcards, classes, escapes, the three "**" forms and the fast paths.

#include "tools/glob.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace nib::tools {
namespace {

TEST(GlobTest, LiteralsMatchOnlyThemselves) {
  EXPECT_TRUE(glob_match("main.cpp", "main.cpp"));
  EXPECT_FALSE(glob_match("main.cpp", "main.cppx"));
  EXPECT_FALSE(glob_match("main.cpp", "src/main.cpp"));
  EXPECT_TRUE(glob_match("", ""));
  EXPECT_FALSE(glob_match("", "a"));
  EXPECT_EQ(Glob("a\\*b").literal(), "a*b");
  EXPECT_EQ(Glob("a*b").literal(), "");
}

TEST(GlobTest, StarAndQuestionMarkStopAtSlashes) {
  EXPECT_TRUE(glob_match("*.cpp", "walk.cpp"));
  EXPECT_TRUE(glob_match("*.cpp", ".cpp"));
  EXPECT_FALSE(glob_match("*.cpp", "src/walk.cpp"));
  EXPECT_TRUE(glob_match("src/*.cpp", "src/walk.cpp"));
  EXPECT_FALSE(glob_match("src/*.cpp", "src/tools/walk.cpp"));
  EXPECT_TRUE(glob_match("test_*", "test_walk"));
  EXPECT_FALSE(glob_match("test_*", "test_/walk"));
  EXPECT_TRUE(glob_match("a*b*c", "aXbYc"));
  EXPECT_TRUE(glob_match("a*b*c", "abc"));
  EXPECT_FALSE(glob_match("a*b*c", "aXb/c"));
  EXPECT_TRUE(glob_match("?.h", "a.h"));
  EXPECT_FALSE(glob_match("?.h", ".h"));
  EXPECT_FALSE(glob_match("a?b", "a/b"));
  EXPECT_TRUE(glob_match("*", "anything"));
  EXPECT_FALSE(glob_match("*", "a/b"));
  EXPECT_EQ(Glob("*.cpp").suffix(), ".cpp");
  EXPECT_EQ(Glob("*/x").suffix(), "");
}

TEST(GlobTest, CharacterClasses) {
  EXPECT_TRUE(glob_match("[abc].txt", "b.txt"));
  EXPECT_FALSE(glob_match("[abc].txt", "d.txt"));
  EXPECT_TRUE(glob_match("file[0-9]", "file7"));
  EXPECT_FALSE(glob_match("file[0-9]", "filex"));
  EXPECT_TRUE(glob_match("[!a-c]x", "dx"));
  EXPECT_FALSE(glob_match("[!a-c]x", "bx"));
  EXPECT_TRUE(glob_match("[^a-c]x", "dx"));
  EXPECT_FALSE(glob_match("[^a-c]x", "ax"));
  EXPECT_TRUE(glob_match("[]]", "]"));
  EXPECT_TRUE(glob_match("[!]]", "a"));
  EXPECT_FALSE(glob_match("[!]]", "]"));
  EXPECT_TRUE(glob_match("[a-]", "-"));
  EXPECT_TRUE(glob_match("[\\]]", "]"));
  EXPECT_TRUE(glob_match("[[:digit:]x]", "5"));
  EXPECT_TRUE(glob_match("[[:digit:]x]", "x"));
  EXPECT_FALSE(glob_match("[[:digit:]x]", "y"));
  EXPECT_TRUE(glob_match("[[:upper:]]*", "README"));
  EXPECT_FALSE(glob_match("[[:upper:]]*", "readme"));
  // Never a separator, even when negated.
  EXPECT_FALSE(glob_match("a[!x]b", "a/b"));
  // An unclosed class is literal.
  EXPECT_TRUE(glob_match("[abc", "[abc"));
  EXPECT_FALSE(glob_match("[abc", "a"));
}

TEST(GlobTest, EscapesMakeWildcardsLiteral) {
  EXPECT_TRUE(glob_match("\\*.txt", "*.txt"));
  EXPECT_FALSE(glob_match("\\*.txt", "a.txt"));
  EXPECT_TRUE(glob_match("what\\?", "what?"));
  EXPECT_FALSE(glob_match("what\\?", "whatx"));
  EXPECT_TRUE(glob_match("\\[x]", "[x]"));
  EXPECT_TRUE(glob_match("trailing\\", "trailing\\"));
}

TEST(GlobTest, LeadingDoubleStarMatchesAnyDirectoryOrNone) {
  EXPECT_TRUE(glob_match("**/foo", "foo"));
  EXPECT_TRUE(glob_match("**/foo", "a/foo"));
  EXPECT_TRUE(glob_match("**/foo", "a/b/c/foo"));
  EXPECT_FALSE(glob_match("**/foo", "afoo"));
  EXPECT_FALSE(glob_match("**/foo", "a/foo/bar"));
  EXPECT_TRUE(glob_match("**/*.ts", "src/deep/x.ts"));
  EXPECT_TRUE(glob_match("**/*.ts", "x.ts"));
}

TEST(GlobTest, TrailingDoubleStarMatchesEverythingInside) {
  EXPECT_TRUE(glob_match("abc/**", "abc/x"));
  EXPECT_TRUE(glob_match("abc/**", "abc/x/y/z"));
  EXPECT_FALSE(glob_match("abc/**", "abc"));
  EXPECT_FALSE(glob_match("abc/**", "abcd/x"));
  EXPECT_TRUE(glob_match("**", "any/thing/at/all"));
}

TEST(GlobTest, MiddleDoubleStarMatchesZeroOrMoreDirectories) {
  EXPECT_TRUE(glob_match("a/**/b", "a/b"));
  EXPECT_TRUE(glob_match("a/**/b", "a/x/b"));
  EXPECT_TRUE(glob_match("a/**/b", "a/x/y/b"));
  EXPECT_FALSE(glob_match("a/**/b", "a/xb"));
  EXPECT_FALSE(glob_match("a/**/b", "ab"));
  EXPECT_TRUE(glob_match("src/**/*_test.cpp", "src/tools/walk_test.cpp"));
  EXPECT_TRUE(glob_match("src/**/*_test.cpp", "src/walk_test.cpp"));
  EXPECT_FALSE(glob_match("src/**/*_test.cpp", "lib/walk_test.cpp"));
}

TEST(GlobTest, OtherDoubleStarsActLikeOneStar) {
  EXPECT_TRUE(glob_match("a**b", "axxb"));
  EXPECT_FALSE(glob_match("a**b", "a/b"));
  EXPECT_TRUE(glob_match("**.txt", "x.txt"));
  EXPECT_FALSE(glob_match("**.txt", "d/x.txt"));
}

TEST(GlobTest, LiteralPartsMustAppearInOrder) {
  EXPECT_TRUE(glob_match("*foo*bar*", "xfooybarz"));
  EXPECT_TRUE(glob_match("*foo*bar*", "foobar"));
  EXPECT_FALSE(glob_match("*foo*bar*", "xbarfoo"));
  EXPECT_FALSE(glob_match("*foo*bar*", "fobar"));
  EXPECT_TRUE(glob_match("ab*ab", "abab"));
  EXPECT_FALSE(glob_match("ab*ab", "aba"));
  EXPECT_FALSE(glob_match("ab*ab", "ab"));
  EXPECT_TRUE(glob_match("pre[0-9]mid?end", "pre1midXend"));
  EXPECT_FALSE(glob_match("pre[0-9]mid?end", "pre1mdXend"));
}

TEST(GlobTest, PathologicalPatternsStayCheap) {
  // A backtracking matcher takes exponential time here; the automaton takes a few microseconds.
  const std::string pattern = "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
  const std::string text(200, 'a');
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(glob_match(pattern, text));
  EXPECT_TRUE(glob_match(pattern, text + "b"));
  const std::string long_pattern(300, '?');
  EXPECT_TRUE(glob_match(long_pattern, std::string(300, 'x')));
  EXPECT_FALSE(glob_match(long_pattern, std::string(299, 'x')));
}

// The documented meaning, spelled out directly and slowly (exponential backtracking), for the
// pieces the randomised test below draws from.
bool reference_match(const std::string& pattern, std::size_t p, const std::string& text,
                     std::size_t t) {
  if (p == pattern.size()) return t == text.size();
  if (pattern.compare(p, 2, "**") == 0) {
    std::size_t end = p;
    while (end < pattern.size() && pattern[end] == '*') ++end;
    const bool segment_start = p == 0 || pattern[p - 1] == '/';
    if (segment_start && end == pattern.size()) return true;
    if (segment_start && pattern[end] == '/') {
      if (reference_match(pattern, end + 1, text, t)) return true;
      for (std::size_t i = t; i < text.size(); ++i) {
        if (text[i] == '/' && reference_match(pattern, end + 1, text, i + 1)) return true;
      }
      return false;
    }
  }
  switch (pattern[p]) {
    case '*': {
      std::size_t end = p;
      while (end < pattern.size() && pattern[end] == '*') ++end;
      for (std::size_t i = t;; ++i) {
        if (reference_match(pattern, end, text, i)) return true;
        if (i == text.size() || text[i] == '/') return false;
      }
    }
    case '?':
      return t < text.size() && text[t] != '/' && reference_match(pattern, p + 1, text, t + 1);
    case '[': {
      const bool negated = pattern[p + 1] == '!';
      const std::size_t close = pattern.find(']', p);
      if (t == text.size() || text[t] == '/') return false;
      const bool in = pattern.substr(p + 1, close - p - 1).find(text[t]) != std::string::npos;
      return (negated ? !(in || text[t] == '!') : in) &&
             reference_match(pattern, close + 1, text, t + 1);
    }
    default:
      return t < text.size() && text[t] == pattern[p] &&
             reference_match(pattern, p + 1, text, t + 1);
  }
}

TEST(GlobTest, AgreesWithASlowReferenceOnRandomPatterns) {
  const std::vector<std::string> pieces = {"a", "b", "/", "*", "?", "**", "[ab]", "[!a]", "**/"};
  std::mt19937 random(20240601);
  for (int round = 0; round < 20000; ++round) {
    std::string pattern;
    const int piece_count = static_cast<int>(random() % 6) + 1;
    for (int i = 0; i < piece_count; ++i) pattern += pieces[random() % pieces.size()];
    std::string text;
    const int text_length = static_cast<int>(random() % 9);
    for (int i = 0; i < text_length; ++i) text += "ab/"[random() % 3];
    ASSERT_EQ(glob_match(pattern, text), reference_match(pattern, 0, text, 0))
        << "pattern \"" << pattern << "\" text \"" << text << "\"";
  }
}

TEST(GlobTest, CompiledGlobIsReusable) {
  const Glob glob("tests/*/[a-z]*_test.cpp");
  EXPECT_EQ(glob.pattern(), "tests/*/[a-z]*_test.cpp");
  EXPECT_TRUE(glob.match("tests/tools/walk_test.cpp"));
  EXPECT_FALSE(glob.match("tests/tools/Walk_test.cpp"));
  EXPECT_FALSE(glob.match("tests/walk_test.cpp"));
}

}  // namespace
}  // namespace nib::tools
