// Tests of ignore-file parsing and matching, and of the precedence between ignore files.

#include "tools/ignore_rules.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace nib::tools {
namespace {

constexpr bool kFile = false;
constexpr bool kDirectory = true;

bool ignored(std::string_view text, std::string_view path, bool is_directory = kFile) {
  return IgnoreRules::parse(text).match(path, is_directory) == IgnoreVerdict::kIgnore;
}

TEST(IgnoreRulesTest, CommentsAndBlankLinesAreSkipped) {
  const auto rules = IgnoreRules::parse("# a comment\n\n   \n#*.txt\n");
  EXPECT_TRUE(rules.empty());
  EXPECT_EQ(rules.match("a.txt", kFile), IgnoreVerdict::kNone);
  EXPECT_TRUE(IgnoreRules::parse("# only\n\n").empty());
}

TEST(IgnoreRulesTest, UnanchoredPatternsMatchNamesAtAnyDepth) {
  EXPECT_TRUE(ignored("*.o\n", "main.o"));
  EXPECT_TRUE(ignored("*.o\n", "src/deep/main.o"));
  EXPECT_FALSE(ignored("*.o\n", "main.c"));
  EXPECT_TRUE(ignored("node_modules\n", "web/node_modules", kDirectory));
  EXPECT_TRUE(ignored("node_modules\n", "node_modules", kFile));
  EXPECT_TRUE(ignored("*.tar.gz\n", "x/release.tar.gz"));
  EXPECT_FALSE(ignored("*.tar.gz\n", "x/release.gz"));
  EXPECT_TRUE(ignored("*~\n", "notes.txt~"));
  EXPECT_TRUE(ignored("Makefile.*\n", "sub/Makefile.in"));
}

TEST(IgnoreRulesTest, SlashAtStartOrMiddleAnchorsToTheFilesDirectory) {
  EXPECT_TRUE(ignored("/build\n", "build", kDirectory));
  EXPECT_FALSE(ignored("/build\n", "src/build", kDirectory));
  EXPECT_TRUE(ignored("doc/frotz\n", "doc/frotz"));
  EXPECT_FALSE(ignored("doc/frotz\n", "a/doc/frotz"));
  EXPECT_TRUE(ignored("src/*.gen.c\n", "src/x.gen.c"));
  EXPECT_FALSE(ignored("src/*.gen.c\n", "src/sub/x.gen.c"));
  EXPECT_TRUE(ignored("/*.txt\n", "top.txt"));
  EXPECT_FALSE(ignored("/*.txt\n", "sub/top.txt"));
}

TEST(IgnoreRulesTest, TrailingSlashMatchesDirectoriesOnly) {
  EXPECT_TRUE(ignored("build/\n", "build", kDirectory));
  EXPECT_TRUE(ignored("build/\n", "sub/build", kDirectory));
  EXPECT_FALSE(ignored("build/\n", "build", kFile));
  EXPECT_TRUE(ignored("/out/\n", "out", kDirectory));
  EXPECT_FALSE(ignored("/out/\n", "sub/out", kDirectory));
  EXPECT_TRUE(ignored("a/b/\n", "a/b", kDirectory));
  EXPECT_FALSE(ignored("a/b/\n", "a/b", kFile));
}

TEST(IgnoreRulesTest, DoubleStarForms) {
  EXPECT_TRUE(ignored("**/logs\n", "logs", kDirectory));
  EXPECT_TRUE(ignored("**/logs\n", "a/b/logs", kDirectory));
  EXPECT_TRUE(ignored("**/logs/debug.log\n", "logs/debug.log"));
  EXPECT_TRUE(ignored("**/logs/debug.log\n", "x/logs/debug.log"));
  EXPECT_FALSE(ignored("**/logs/debug.log\n", "x/logs/other.log"));
  EXPECT_TRUE(ignored("abc/**\n", "abc/x"));
  EXPECT_TRUE(ignored("abc/**\n", "abc/x/y"));
  EXPECT_FALSE(ignored("abc/**\n", "abc", kDirectory));
  EXPECT_TRUE(ignored("a/**/b\n", "a/b"));
  EXPECT_TRUE(ignored("a/**/b\n", "a/x/y/b"));
  EXPECT_FALSE(ignored("a/**/b\n", "z/a/x/b"));
}

TEST(IgnoreRulesTest, NegationReIncludesAndTheLastMatchWins) {
  const auto rules = IgnoreRules::parse("*.log\n!keep.log\n");
  EXPECT_EQ(rules.match("debug.log", kFile), IgnoreVerdict::kIgnore);
  EXPECT_EQ(rules.match("sub/keep.log", kFile), IgnoreVerdict::kKeep);
  EXPECT_EQ(rules.match("main.c", kFile), IgnoreVerdict::kNone);
  // The other way round the later, broader pattern wins.
  EXPECT_TRUE(ignored("!keep.log\n*.log\n", "keep.log"));
  // Across the different kinds of pattern (exact name, extension, general), order still decides.
  EXPECT_FALSE(ignored("keep.log\n*.log\n!k*\n", "keep.log"));
  EXPECT_TRUE(ignored("!k*\nkeep.log\n", "keep.log"));
  EXPECT_TRUE(ignored("!keep.log\nk*.log\n", "keep.log"));
  EXPECT_FALSE(ignored("*.log\n!/keep.log\n", "keep.log"));
  EXPECT_TRUE(ignored("*.log\n!/keep.log\n", "sub/keep.log"));
}

TEST(IgnoreRulesTest, EscapesForLeadingHashAndBang) {
  EXPECT_TRUE(ignored("\\#notes\n", "#notes"));
  EXPECT_TRUE(ignored("\\!important\n", "!important"));
  EXPECT_EQ(IgnoreRules::parse("\\!important\n").match("important", kFile), IgnoreVerdict::kNone);
}

TEST(IgnoreRulesTest, TrailingSpacesAreTrimmedUnlessEscaped) {
  EXPECT_TRUE(ignored("name.txt   \n", "name.txt"));
  EXPECT_TRUE(ignored("space\\ \n", "space "));
  EXPECT_FALSE(ignored("space\\ \n", "space"));
  EXPECT_TRUE(ignored("  lead\n", "  lead"));
}

TEST(IgnoreRulesTest, WindowsLineEndsAndNoFinalNewline) {
  const auto rules = IgnoreRules::parse("*.tmp\r\nbuild/\r\n!x.tmp");
  EXPECT_EQ(rules.match("a.tmp", kFile), IgnoreVerdict::kIgnore);
  EXPECT_EQ(rules.match("build", kDirectory), IgnoreVerdict::kIgnore);
  EXPECT_EQ(rules.match("x.tmp", kFile), IgnoreVerdict::kKeep);
}

TEST(IgnoreRulesTest, ClassesAndQuestionMarks) {
  EXPECT_TRUE(ignored("*.py[cod]\n", "x/mod.pyc"));
  EXPECT_FALSE(ignored("*.py[cod]\n", "x/mod.py"));
  EXPECT_TRUE(ignored("[Bb]in/\n", "Bin", kDirectory));
  EXPECT_TRUE(ignored("log?.txt\n", "log1.txt"));
  EXPECT_FALSE(ignored("log?.txt\n", "log12.txt"));
}

bool is_ignored(const IgnoreLevel* level, std::string_view path, bool is_directory) {
  return ignore_verdict(level, path, is_directory) == IgnoreVerdict::kIgnore;
}

// A level at `prefix` (e.g. "sub/") with the given files, above `parent`.
std::shared_ptr<const IgnoreLevel> level(std::shared_ptr<const IgnoreLevel> parent,
                                         std::string_view prefix, std::string_view gitignore,
                                         std::string_view dot_ignore = "",
                                         std::string_view exclude = "") {
  auto made = std::make_shared<IgnoreLevel>();
  made->parent = std::move(parent);
  made->prefix_length = prefix.size();
  made->gitignore = IgnoreRules::parse(gitignore);
  made->dot_ignore = IgnoreRules::parse(dot_ignore);
  made->exclude = IgnoreRules::parse(exclude);
  return made;
}

TEST(IgnoreLevelTest, DeeperFilesOverrideShallowerOnes) {
  const auto top = level(nullptr, "", "*.log\n/only-top.txt\n");
  const auto sub = level(top, "sub/", "!keep.log\n/only-top.txt\n");
  EXPECT_TRUE(is_ignored(sub.get(), "sub/debug.log", kFile));
  EXPECT_FALSE(is_ignored(sub.get(), "sub/keep.log", kFile));
  EXPECT_TRUE(is_ignored(top.get(), "keep.log", kFile));
  // Anchored patterns are relative to their own file's directory.
  EXPECT_TRUE(is_ignored(top.get(), "only-top.txt", kFile));
  EXPECT_TRUE(is_ignored(sub.get(), "sub/only-top.txt", kFile));
  EXPECT_FALSE(is_ignored(sub.get(), "sub/x/only-top.txt", kFile));
  EXPECT_EQ(ignore_verdict(sub.get(), "sub/keep.log", kFile), IgnoreVerdict::kKeep);
  EXPECT_EQ(ignore_verdict(sub.get(), "sub/main.c", kFile), IgnoreVerdict::kNone);
  EXPECT_EQ(ignore_verdict(nullptr, "anything", kFile), IgnoreVerdict::kNone);
}

TEST(IgnoreLevelTest, DotIgnoreBeatsGitignoreWhichBeatsExclude) {
  const auto top = level(nullptr, "", "", "", "*.bak\nsecret.txt\n");
  const auto sub = level(top, "sub/", "!secret.txt\ngenerated.c\n", "!generated.c\n");
  EXPECT_TRUE(is_ignored(top.get(), "a.bak", kFile));
  EXPECT_FALSE(is_ignored(sub.get(), "sub/secret.txt", kFile));    // .gitignore over exclude
  EXPECT_FALSE(is_ignored(sub.get(), "sub/generated.c", kFile));   // .ignore over .gitignore
  const auto deeper = level(sub, "sub/deeper/", "generated.c\n");  // a deeper .gitignore...
  EXPECT_FALSE(is_ignored(deeper.get(), "sub/deeper/generated.c", kFile));  // ...still loses
}

}  // namespace
}  // namespace nib::tools
