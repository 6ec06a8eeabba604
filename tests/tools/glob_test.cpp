// Tests of the glob matcher: wildcards, classes, escapes, the three "**" forms and the fast paths.

#include "tools/glob.hpp"

#include <gtest/gtest.h>

#include <string>

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

TEST(GlobTest, CompiledGlobIsReusable) {
  const Glob glob("tests/*/[a-z]*_test.cpp");
  EXPECT_EQ(glob.pattern(), "tests/*/[a-z]*_test.cpp");
  EXPECT_TRUE(glob.match("tests/tools/walk_test.cpp"));
  EXPECT_FALSE(glob.match("tests/tools/Walk_test.cpp"));
  EXPECT_FALSE(glob.match("tests/walk_test.cpp"));
}

}  // namespace
}  // namespace nib::tools
