// Tests of the grep tool as the model calls it: arguments, output format and order, notes on
// limits and cuts, what is skipped (binary, hidden, ignored), awkward trees, and stopping.

#include "tools/grep.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "core/schema_validator.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "tools/limits.hpp"

namespace nib::tools {
namespace {

using namespace std::string_literals;
using nlohmann::json;

using testing::contains;

class GrepToolTest : public ::testing::Test {
 protected:
  core::ToolOutput grep(json args, std::stop_token stop = {}) {
    return tool_->execute(args, stop, {"call-1", dir_.path()});
  }
  // The output of a search that must succeed.
  std::string found(json args) {
    const auto result = grep(std::move(args));
    EXPECT_FALSE(result.is_error) << result.output;
    return result.output;
  }

  testing::TempDir dir_;
  core::ToolPtr tool_ = make_grep_tool();
};

TEST_F(GrepToolTest, SpecDescribesTheRealLimits) {
  const auto& spec = tool_->spec();
  EXPECT_EQ(spec.name, "grep");
  EXPECT_TRUE(spec.concurrency_safe);
  EXPECT_TRUE(contains(spec.description, "path:line: text"));
  EXPECT_TRUE(contains(spec.description, std::to_string(kGrepShownLineBytes) + " bytes"));
  EXPECT_TRUE(contains(spec.description, "default " + std::to_string(kGrepDefaultLimit)));
  EXPECT_TRUE(contains(spec.description, "50 KB"));
  EXPECT_TRUE(contains(spec.description, "a NUL byte in the first 256 KB"));
  const auto compiled = core::CompiledSchema::compile(spec.parameters);
  ASSERT_TRUE(compiled.ok()) << compiled.error();
  const auto& schema = compiled.value();
  EXPECT_TRUE(schema->validate({{"pattern", "x"}}).empty());
  EXPECT_TRUE(schema
                  ->validate({{"pattern", "x"},
                              {"path", "src"},
                              {"glob", "*.cpp"},
                              {"ignoreCase", true},
                              {"literal", false},
                              {"context", 2},
                              {"limit", 5}})
                  .empty());
  EXPECT_FALSE(schema->validate(json::object()).empty());
  EXPECT_FALSE(schema->validate({{"pattern", "x"}, {"limit", 0}}).empty());
  EXPECT_FALSE(schema->validate({{"pattern", "x"}, {"context", -1}}).empty());
}

TEST_F(GrepToolTest, FindsRegexMatchesSortedByPathThenLine) {
  dir_.write("b.txt", "needle one\nnothing\nneedle two\n");
  dir_.write("a/z.txt", "a needle\n");
  dir_.write("a.c", "needle in a.c\n");
  EXPECT_EQ(found({{"pattern", "ne+dle"}}),
            "a/z.txt:1: a needle\n"
            "a.c:1: needle in a.c\n"
            "b.txt:1: needle one\n"
            "b.txt:3: needle two");
}

TEST_F(GrepToolTest, LiteralTakesMetacharactersAsText) {
  dir_.write("f.txt", "call(a.b)\ncallXa_b)\n");
  EXPECT_EQ(found({{"pattern", "call(a.b)"}, {"literal", true}}), "f.txt:1: call(a.b)");
  EXPECT_EQ(found({{"pattern", "call\\(a.b\\)"}}), "f.txt:1: call(a.b)");
}

TEST_F(GrepToolTest, IgnoreCase) {
  dir_.write("f.txt", "Hello\nHELLO\nhello\nhelo\n");
  EXPECT_EQ(found({{"pattern", "hello"}, {"ignoreCase", true}}),
            "f.txt:1: Hello\nf.txt:2: HELLO\nf.txt:3: hello");
  EXPECT_EQ(found({{"pattern", "hello"}, {"ignoreCase", true}, {"literal", true}, {"limit", 1}})
                .substr(0, 15),
            "f.txt:1: Hello\n");
}

TEST_F(GrepToolTest, ContextLinesAndGroupSeparators) {
  std::string text;
  for (int i = 1; i <= 10; ++i)
    text += (i == 2 || i == 8 ? "match " : "line ") + std::to_string(i) + "\n";
  dir_.write("f.txt", text);
  dir_.write("g.txt", "match g\n");
  EXPECT_EQ(found({{"pattern", "match"}, {"context", 1}}),
            "f.txt-1- line 1\n"
            "f.txt:2: match 2\n"
            "f.txt-3- line 3\n"
            "--\n"
            "f.txt-7- line 7\n"
            "f.txt:8: match 8\n"
            "f.txt-9- line 9\n"
            "--\n"
            "g.txt:1: match g");
}

TEST_F(GrepToolTest, LimitNoteGivesTheTotalAndHowToNarrow) {
  std::string text;
  for (int i = 0; i < 30; ++i) text += "match\n";
  dir_.write("a.txt", text);
  dir_.write("b.txt", text);
  const std::string output = found({{"pattern", "match"}, {"limit", 5}});
  EXPECT_TRUE(output.starts_with("a.txt:1: match\na.txt:2: match\n")) << output;
  EXPECT_FALSE(contains(output, "a.txt:6:"));
  EXPECT_TRUE(contains(output, "[Showing 5 of 60 matching lines in 2 files (limit 5)")) << output;
  EXPECT_TRUE(contains(output, "a more specific pattern, a path or a glob, or raise limit"));
}

TEST_F(GrepToolTest, DefaultLimitAndOutputCap) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "match " + std::string(40, 'x') + "\n";
  dir_.write("big.txt", text);
  const std::string by_limit = found({{"pattern", "match"}});
  EXPECT_TRUE(contains(by_limit, "[Showing 100 of 5000 matching lines in 1 file (limit 100)"))
      << by_limit.substr(by_limit.size() - 300);
  const std::string by_size = found({{"pattern", "match"}, {"limit", 100000}});
  EXPECT_LE(by_size.size(), process::kMaxOutputBytes + 1000);
  EXPECT_TRUE(contains(by_size, "matching lines in 1 file (a result holds at most 50 KB"))
      << by_size.substr(by_size.size() - 300);
}

TEST_F(GrepToolTest, LongLinesAreCutAroundTheMatchWithANote) {
  dir_.write("min.js", std::string(5000, 'a') + "TARGET" + std::string(5000, 'b') + "\n");
  const std::string output = found({{"pattern", "TARGET"}});
  EXPECT_TRUE(output.starts_with("min.js:1: \xE2\x80\xA6")) << output.substr(0, 40);
  EXPECT_TRUE(contains(output, "TARGET"));
  EXPECT_LT(output.find('\n'), kGrepShownLineBytes + 40);
  EXPECT_TRUE(contains(output, "[Lines longer than 500 bytes are cut around the match"));
}

TEST_F(GrepToolTest, SkipsBinaryHiddenAndIgnoredFiles) {
  dir_.write("text.txt", "secret\n");
  dir_.write("data.bin", "secret\0\1\2"s);
  dir_.write(".hidden.txt", "secret\n");
  dir_.write(".config/settings", "secret\n");
  dir_.write("build/out.txt", "secret\n");
  dir_.write("notes.log", "secret\n");
  dir_.write(".gitignore", "build/\n*.log\n");
  EXPECT_EQ(found({{"pattern", "secret"}}), "text.txt:1: secret");
  // Named outright, a hidden or ignored file is searched; a binary one is not.
  EXPECT_EQ(found({{"pattern", "secret"}, {"path", ".hidden.txt"}}), ".hidden.txt:1: secret");
  EXPECT_EQ(found({{"pattern", "secret"}, {"path", "notes.log"}}), "notes.log:1: secret");
  EXPECT_EQ(found({{"pattern", "secret"}, {"path", ".config"}}), ".config/settings:1: secret");
  EXPECT_TRUE(
      contains(found({{"pattern", "secret"}, {"path", "data.bin"}}), "It is a binary file"));
}

TEST_F(GrepToolTest, NoMatchIsAPlainResultNotAnError) {
  dir_.write("f.txt", "nothing here\n");
  dir_.write("g.bin", "x\0y"s);
  const auto result = grep({{"pattern", "absent"}});
  EXPECT_FALSE(result.is_error);
  EXPECT_TRUE(result.output.starts_with("No matches for \"absent\" in .")) << result.output;
  EXPECT_TRUE(contains(result.output, "(1 binary file skipped)")) << result.output;
}

TEST_F(GrepToolTest, InvalidRegexQuotesRe2) {
  const auto result = grep({{"pattern", "(unclosed"}});
  EXPECT_TRUE(result.is_error);
  EXPECT_EQ(result.output,
            "Invalid regex \"(unclosed\": missing ): (unclosed. Fix it, or set literal=true to "
            "search for the text as written.");
}

TEST_F(GrepToolTest, PatternsWithALineBreakAreRefused) {
  EXPECT_TRUE(grep({{"pattern", "a\\nb"}}).is_error);
  EXPECT_TRUE(grep({{"pattern", "a\nb"}, {"literal", true}}).is_error);
  dir_.write("f.txt", "a\\nb\nx\n");
  // Inside a class, or as literal text, \n is fine.
  EXPECT_EQ(found({{"pattern", "a\\nb"}, {"literal", true}}), "f.txt:1: a\\nb");
  EXPECT_EQ(found({{"pattern", "^[^\\n]$"}}), "f.txt:2: x");
}

TEST_F(GrepToolTest, CatastrophicLookingRegexReturns) {
  dir_.write("f.txt", std::string(100'000, 'a') + "!\nshort aaa\n");
  EXPECT_EQ(found({{"pattern", "(a+)+$"}}), "f.txt:2: short aaa");
}

TEST_F(GrepToolTest, GlobFiltersByNameOrPath) {
  dir_.write("src/a.cpp", "hit\n");
  dir_.write("src/a.hpp", "hit\n");
  dir_.write("src/deep/b.cpp", "hit\n");
  dir_.write("notes.txt", "hit\n");
  EXPECT_EQ(found({{"pattern", "hit"}, {"glob", "*.cpp"}}),
            "src/a.cpp:1: hit\nsrc/deep/b.cpp:1: hit");
  EXPECT_EQ(found({{"pattern", "hit"}, {"glob", "*.{hpp,txt}"}}),
            "notes.txt:1: hit\nsrc/a.hpp:1: hit");
  EXPECT_EQ(found({{"pattern", "hit"}, {"glob", "src/*.cpp"}}), "src/a.cpp:1: hit");
  EXPECT_EQ(found({{"pattern", "hit"}, {"glob", "!*.cpp"}}), "notes.txt:1: hit\nsrc/a.hpp:1: hit");
  EXPECT_TRUE(found({{"pattern", "hit"}, {"glob", "*.rs"}})
                  .starts_with("No matches for \"hit\" in . (files matching \"*.rs\")."));
}

TEST_F(GrepToolTest, PathsAreShownRelativeToTheWorkingDirectory) {
  dir_.write("sub/dir/f.txt", "hit\n");
  EXPECT_EQ(found({{"pattern", "hit"}, {"path", "sub"}}), "sub/dir/f.txt:1: hit");
  EXPECT_EQ(found({{"pattern", "hit"}, {"path", (dir_.path() / "sub/dir").string()}}),
            "sub/dir/f.txt:1: hit");
  EXPECT_EQ(found({{"pattern", "hit"}, {"path", "sub/dir/f.txt"}}), "sub/dir/f.txt:1: hit");
  const auto missing = grep({{"pattern", "hit"}, {"path", "nope"}});
  EXPECT_TRUE(missing.is_error);
  EXPECT_TRUE(missing.output.starts_with("Path not found: nope.")) << missing.output;
}

TEST_F(GrepToolTest, LineEndsAndUtf8) {
  dir_.write("crlf.txt", "first\r\nsecond hit\r\n");
  dir_.write("last.txt", "a\nlast hit");
  dir_.write("utf8.txt", "größe hit ü\n日本語 hit\n");
  EXPECT_EQ(found({{"pattern", "hit"}}),
            "crlf.txt:2: second hit\n"
            "last.txt:2: last hit\n"
            "utf8.txt:1: größe hit ü\n"
            "utf8.txt:2: 日本語 hit");
  EXPECT_EQ(found({{"pattern", "GRÖSSE|日本"}, {"ignoreCase", true}}),
            "utf8.txt:2: 日本語 hit");  // RE2 folds case per character: ß is not SS
  EXPECT_EQ(found({{"pattern", "^\\p{Han}+ "}}), "utf8.txt:2: 日本語 hit");
}

TEST_F(GrepToolTest, MatchInTheLastBlockOfALargeFile) {
  std::string text;
  while (text.size() < 3 * kGrepBlockBytes) text += "some filler text for the block\n";
  const auto lines = std::count(text.begin(), text.end(), '\n');
  text += "the end marker\n";
  dir_.write("large.txt", text);
  EXPECT_EQ(found({{"pattern", "end marker"}}),
            "large.txt:" + std::to_string(lines + 1) + ": the end marker");
}

TEST_F(GrepToolTest, SymlinkLoopDoesNotHang) {
  dir_.write("d/f.txt", "hit\n");
  std::filesystem::create_directory_symlink(dir_.path() / "d", dir_.path() / "d/loop");
  std::filesystem::create_symlink(dir_.path() / "d/f.txt", dir_.path() / "link.txt");
  // Links met in the walk are not followed, as in ripgrep: their targets are searched where
  // they live. A link named as the path is searched.
  EXPECT_EQ(found({{"pattern", "hit"}}), "d/f.txt:1: hit");
  EXPECT_EQ(found({{"pattern", "hit"}, {"path", "link.txt"}}), "link.txt:1: hit");
}

TEST_F(GrepToolTest, UnreadableDirectoryIsNamed) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads a chmod-000 directory anyway";
  dir_.write("open/f.txt", "hit\n");
  dir_.write("closed/g.txt", "hit\n");
  ASSERT_EQ(chmod((dir_.path() / "closed").c_str(), 0), 0);
  const std::string output = found({{"pattern", "hit"}});
  EXPECT_TRUE(output.starts_with("open/f.txt:1: hit\n")) << output;
  EXPECT_TRUE(contains(output, "[Could not list 1 directory: closed.")) << output;
}

TEST_F(GrepToolTest, SeveralUnreadableDirectoriesAreCountedInTheirPlural) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads a chmod-000 directory anyway";
  dir_.write("a/f.txt", "hit\n");
  dir_.write("b/g.txt", "hit\n");
  ASSERT_EQ(chmod((dir_.path() / "a").c_str(), 0), 0);
  ASSERT_EQ(chmod((dir_.path() / "b").c_str(), 0), 0);
  const std::string output = found({{"pattern", "hit"}});
  EXPECT_TRUE(contains(output, "[Could not list 2 directories: a, b.")) << output;
}

TEST_F(GrepToolTest, StoppedSearchSaysSo) {
  dir_.write("f.txt", "hit\n");
  std::stop_source source;
  source.request_stop();
  const auto result = grep({{"pattern", "hit"}}, source.get_token());
  EXPECT_FALSE(result.is_error);
  EXPECT_TRUE(result.output.starts_with("No matches so far for \"hit\" in .")) << result.output;
  EXPECT_TRUE(contains(result.output, "[Stopped before the search finished")) << result.output;
}

TEST_F(GrepToolTest, BadArgumentsAreExplained) {
  EXPECT_EQ(grep({{"pattern", ""}}).output, "pattern is empty: give the text or regex to find.");
  EXPECT_EQ(grep({{"pattern", "x"}, {"limit", "ten"}}).output,
            "limit must be a whole number >= 1, got \"ten\".");
  dir_.write("f.txt", "x\n");
  EXPECT_EQ(found({{"pattern", "x"}, {"limit", 3.0}, {"context", 100}}), "f.txt:1: x");
}

}  // namespace
}  // namespace nib::tools
