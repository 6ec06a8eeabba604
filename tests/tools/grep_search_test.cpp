// Tests of grep's pieces below the tool: the literal finder and required-literal reading, the
// line matcher, the block-wise file scan (against a line-by-line reference for many block sizes),
// display cutting, and the collection and formatting of results.

#include <re2/re2.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <stop_token>

#include "tools/grep_format.hpp"
#include "tools/grep_literal.hpp"
#include "tools/grep_search.hpp"

#include "tools/line_matcher_test_util.hpp"

namespace nib::tools {
namespace {

using namespace std::string_literals;

// Delivers `text` in reads of at most `chunk` bytes.
BlockReader chunked_reader(const std::string& text, std::size_t chunk) {
  auto offset = std::make_shared<std::size_t>(0);
  return [&text, chunk, offset](char* data, std::size_t size) -> std::ptrdiff_t {
    const std::size_t count = std::min({size, chunk, text.size() - *offset});
    std::copy_n(text.data() + *offset, count, data);
    *offset += count;
    return static_cast<std::ptrdiff_t>(count);
  };
}

FileScan scan(const std::string& text, const LineMatcher& matcher, ScanOptions options = {},
              std::size_t chunk = SIZE_MAX) {
  ScanBuffer buffer;
  return scan_lines(chunked_reader(text, chunk), matcher, options, {}, buffer);
}

// "N:text" for matches, "N-text" for context lines.
std::vector<std::string> rendered(const FileScan& result) {
  std::vector<std::string> lines;
  for (const auto& line : result.lines) {
    lines.push_back(std::to_string(line.number) + (line.is_match ? ":" : "-") + line.text);
  }
  return lines;
}

TEST(LiteralFinderTest, FindsEveryOccurrenceFromAnOffset) {
  const LiteralFinder finder("EXIT");
  const std::string text = "EXIT at start, EXIT_SUCCESS in the middle and EXIT";
  EXPECT_EQ(finder.find(text, 0), 0u);
  EXPECT_EQ(finder.find(text, 1), 15u);
  EXPECT_EQ(finder.find(text, 16), text.size() - 4);
  EXPECT_EQ(finder.find(text, text.size() - 3), std::string_view::npos);
  EXPECT_EQ(finder.find("EXI", 0), std::string_view::npos);
  EXPECT_EQ(finder.find("", 0), std::string_view::npos);
  EXPECT_EQ(finder.find(text, text.size() + 5), std::string_view::npos);
}

TEST(LiteralFinderTest, AgreesWithStringFindOnRandomText) {
  std::mt19937 random(7);
  for (int round = 0; round < 300; ++round) {
    std::string text(random() % 200, 'a');
    for (char& c : text) c = "abz\n"[random() % 4];
    std::string needle(1 + random() % (round % 3 == 0 ? 40 : 4), 'a');
    for (char& c : needle) c = "abz"[random() % 3];
    const LiteralFinder finder(needle);
    for (std::size_t from = 0; from <= text.size(); from += 1 + random() % 5) {
      ASSERT_EQ(finder.find(text, from), text.find(needle, from))
          << "needle " << needle << " from " << from << " in " << text;
    }
  }
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

TEST(LiteralFinderTest, FoldingCaseAgreesWithFindOnLowercasedText) {
  std::mt19937 random(5);
  for (int round = 0; round < 300; ++round) {
    std::string text(random() % 200, 'a');
    for (char& c : text) c = "aAbBzZ_@`\n"[random() % 10];
    std::string needle(1 + random() % 4, 'a');
    for (char& c : needle) c = "aAbBz_`"[random() % 7];
    const LiteralFinder finder(needle, /*fold_ascii_case=*/true);
    const std::string folded = lowercase(text);
    for (std::size_t from = 0; from <= text.size(); from += 1 + random() % 5) {
      ASSERT_EQ(finder.find(text, from), folded.find(lowercase(needle), from))
          << "needle " << needle << " from " << from << " in " << text;
    }
  }
}

TEST(LiteralFinderTest, FoldSafeRunAvoidsBytesThatFoldOutsideAscii) {
  EXPECT_EQ(fold_safe_run("EXIT_SUCCESS"), "exit_");
  EXPECT_EQ(fold_safe_run("Kelvin"), "elvin");
  EXPECT_EQ(fold_safe_run("\xC3\xBCn\xC3\xAF"
                          "code"),
            "code");  // ünïcode
  EXPECT_EQ(fold_safe_run("sks"), "");
}

TEST(RequiredLiteralTest, ReadsPlainRunsOfTopLevelSequences) {
  EXPECT_EQ(required_literal("EXIT_SUCCESS"), "EXIT_SUCCESS");
  EXPECT_EQ(required_literal("\\.txt$"), ".txt");
  EXPECT_EQ(required_literal("[abc]def"), "def");
  EXPECT_EQ(required_literal("(foo|bar)?baz"), "baz");
  EXPECT_EQ(required_literal("colou?r"), "colo");
  EXPECT_EQ(required_literal("x{2,}"), "x");
  EXPECT_EQ(required_literal("a{0,3}qq"), "qq");
  EXPECT_EQ(required_literal("héllo+"), "héllo");
  const auto either = required_literal("struct \\w+_info");
  ASSERT_TRUE(either);
  EXPECT_TRUE(*either == "struct " || *either == "_info") << *either;
}

TEST(RequiredLiteralTest, GivesUpWhereAPieceMayBeMissing) {
  EXPECT_EQ(required_literal("foo|bar"), std::nullopt);
  EXPECT_EQ(required_literal("(?i)foo"), std::nullopt);
  EXPECT_EQ(required_literal("a*"), std::nullopt);
  EXPECT_EQ(required_literal("\\w+\\d"), std::nullopt);
  EXPECT_EQ(required_literal("\\x41BC"), std::nullopt);
  EXPECT_EQ(required_literal("a{x"), std::nullopt);
  EXPECT_EQ(required_literal(""), std::nullopt);
}

// Whatever the pattern, a string the regex matches contains the literal read from it.
TEST(RequiredLiteralTest, EveryMatchContainsTheLiteralOnRandomPatterns) {
  const std::vector<std::string> pieces = {"a", "b",    "c",      "ab",    "a*",      "b+",   "c?",
                                           ".", "\\.",  "[ab]",   "(a|c)", "(?:bc)?", "x{2}", "|",
                                           "^", "\\w+", "a{1,2}", "\\b",   "\\s"};
  std::mt19937 random(11);
  std::size_t checked = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string pattern;
    for (int i = 1 + static_cast<int>(random() % 5); i > 0; --i) {
      pattern += pieces[random() % pieces.size()];
    }
    RE2 regex(pattern, RE2::Quiet);
    if (!regex.ok()) continue;
    const auto literal = required_literal(pattern);
    if (!literal) continue;
    for (int sample = 0; sample < 50; ++sample) {
      std::string text(random() % 8, 'a');
      for (char& c : text) c = "abcx. "[random() % 6];
      if (RE2::PartialMatch(text, regex)) {
        ++checked;
        ASSERT_NE(text.find(*literal), std::string::npos)
            << "pattern " << pattern << " literal " << *literal << " text " << text;
      }
    }
  }
  EXPECT_GT(checked, 100u);
}

TEST(LineMatcherTest, RegexLiteralAndIgnoreCase) {
  const std::string text = "Foo bar\nfoo.bar\nfooXbar\n";
  EXPECT_EQ(matching_lines(compile("foo.bar"), text), (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(matching_lines(compile("foo.bar", {.literal = true}), text),
            (std::vector<std::size_t>{2}));
  EXPECT_EQ(matching_lines(compile("FOO", {.ignore_case = true}), text),
            (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(matching_lines(compile("FOO.BAR", {.literal = true, .ignore_case = true}), text),
            (std::vector<std::size_t>{2}));
  // Unicode case folding.
  EXPECT_EQ(matching_lines(compile("ÄRGER", {.ignore_case = true}), "x\närger\n"),
            (std::vector<std::size_t>{2}));
}

// With case folding the prefilter compares only what folds within ASCII, so a line RE2 matches
// through K (Kelvin sign) or ſ (long s) is still found.
TEST(LineMatcherTest, IgnoringCaseFindsWhatRe2FindsLineByLine) {
  const std::vector<std::string> pieces = {"exit",
                                           "EXIT",
                                           "_",
                                           "success",
                                           "SUCCESS",
                                           "\xC5\xBF"
                                           "uccess",
                                           "\xE2\x84\xAA"
                                           "ey",
                                           "key",
                                           " ",
                                           "\n",
                                           "Exit_Su"};
  const std::vector<std::string> patterns = {"exit_success", "key", "exit_s\\w+", "e[xy]"};
  std::mt19937 random(9);
  for (const auto& pattern : patterns) {
    for (const bool literal : {false, true}) {
      const auto matcher = compile(pattern, {.literal = literal, .ignore_case = true});
      RE2::Options options;
      options.set_case_sensitive(false);
      options.set_literal(literal);
      const RE2 reference(pattern, options);
      for (int round = 0; round < 100; ++round) {
        std::string text;
        for (int i = static_cast<int>(random() % 30); i > 0; --i) {
          text += pieces[random() % pieces.size()];
        }
        std::vector<std::size_t> expected;
        std::size_t number = 1;
        for (std::size_t start = 0; start < text.size(); ++number) {
          const std::size_t end = std::min(text.find('\n', start), text.size());
          if (RE2::PartialMatch(std::string_view(text).substr(start, end - start), reference)) {
            expected.push_back(number);
          }
          start = end + 1;
        }
        ASSERT_EQ(matching_lines(matcher, text), expected)
            << "pattern " << pattern << " literal " << literal << " text " << text;
      }
    }
  }
}

TEST(LineMatcherTest, AnchorsWorkPerLineAndNothingCrossesALineEnd) {
  const std::string text = "alpha\nbeta\n  gamma\n";
  EXPECT_EQ(matching_lines(compile("^beta$"), text), (std::vector<std::size_t>{2}));
  EXPECT_EQ(matching_lines(compile("^\\s+g"), text), (std::vector<std::size_t>{3}));
  EXPECT_TRUE(matching_lines(compile("alpha\\sbeta"), text).empty());
  EXPECT_TRUE(matching_lines(compile("a[^x]beta"), text).empty());
  EXPECT_TRUE(matching_lines(compile("(?s)alpha.beta"), text).empty());
  // The required-literal path sees the line around its hit, ^ included.
  EXPECT_EQ(matching_lines(compile("^  gam+a"), text), (std::vector<std::size_t>{3}));
}

TEST(LineMatcherTest, EmptyMatchesFindEveryLineButNoneAfterTheLast) {
  EXPECT_EQ(matching_lines(compile("x*"), "a\nb\n"), (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(matching_lines(compile("^"), "a\n\nb"), (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(matching_lines(compile("$"), "a\n"), (std::vector<std::size_t>{1}));
  EXPECT_TRUE(matching_lines(compile("^"), "").empty());
}

TEST(LineMatcherTest, InvalidRegexGivesRe2sMessageAboutThePatternAsWritten) {
  const auto unclosed = LineMatcher::compile("(foo", {});
  EXPECT_FALSE(unclosed.ok());
  EXPECT_EQ(unclosed.error(), "missing ): (foo");
  const auto repeated = LineMatcher::compile("a**", {});
  EXPECT_FALSE(repeated.ok());
  EXPECT_EQ(repeated.error(), "bad repetition operator: **");
  // As a literal, the same text is fine.
  EXPECT_TRUE(LineMatcher::compile("(foo", {.literal = true}).ok());
}

TEST(LineMatcherTest, NestedQuantifiersRunInLinearTime) {
  // A backtracking engine would take forever here; RE2 does not backtrack. No timing assertion:
  // the test finishing is the point.
  const std::string line = std::string(100'000, 'a') + "b\n";
  EXPECT_TRUE(matching_lines(compile("(a+)+$"), line).empty());
  EXPECT_EQ(matching_lines(compile("(a|aa)+b"), line), (std::vector<std::size_t>{1}));
}

TEST(ScanTest, KeepsMatchesWithNumbersAndCountsThem) {
  const auto result = scan("one\ntwo\nthree\ntwo again\n", compile("two"));
  EXPECT_EQ(result.status, ScanStatus::kDone);
  EXPECT_EQ(result.matches, 2u);
  EXPECT_EQ(rendered(result), (std::vector<std::string>{"2:two", "4:two again"}));
}

TEST(ScanTest, LastLineWithoutNewlineAndCrlfLines) {
  EXPECT_EQ(rendered(scan("a\nb\nlast match", compile("match"))),
            (std::vector<std::string>{"3:last match"}));
  EXPECT_EQ(rendered(scan("first\r\nsecond match\r\nthird\r\n", compile("match$"))),
            (std::vector<std::string>{}));  // as in ripgrep: "$" does not skip the "\r"
  EXPECT_EQ(rendered(scan("first\r\nsecond match\r\nthird\r\n", compile("match"))),
            (std::vector<std::string>{"2:second match"}));
}

TEST(ScanTest, ContextLinesAroundMatchesWithoutRepeats) {
  std::string text;
  for (int i = 1; i <= 12; ++i)
    text += (i == 3 || i == 5 || i == 11 ? "hit " : "line ") + std::to_string(i) + "\n";
  ScanOptions options;
  options.context = 1;
  EXPECT_EQ(rendered(scan(text, compile("hit"), options)),
            (std::vector<std::string>{"2-line 2", "3:hit 3", "4-line 4", "5:hit 5", "6-line 6",
                                      "10-line 10", "11:hit 11", "12-line 12"}));
}

TEST(ScanTest, MatchInTheLastBlockOfAFileLargerThanABlock) {
  std::string text;
  for (int i = 1; i <= 20'000; ++i) text += "filler line " + std::to_string(i) + "\n";
  text += "the needle is here\n";
  ScanOptions options;
  options.block_bytes = 4096;
  const auto result = scan(text, compile("needle"), options, 4096);
  EXPECT_EQ(rendered(result), (std::vector<std::string>{"20001:the needle is here"}));
}

// The block-wise scan finds the same lines, numbers and context as a plain line-by-line search,
// for every way the text can be cut into reads.
TEST(ScanTest, AgreesWithALineByLineReferenceForAnyBlockSize) {
  std::mt19937 random(3);
  for (int round = 0; round < 200; ++round) {
    std::string text;
    const int line_count = static_cast<int>(random() % 30);
    std::vector<std::string> lines;
    for (int i = 0; i < line_count; ++i) {
      std::string line(random() % 12, 'x');
      for (char& c : line) c = "abk "[random() % 4];
      lines.push_back(line);
      text += line;
      // An empty last line exists only with its '\n'.
      if (i + 1 < line_count || line.empty() || random() % 2 == 0) text += "\n";
    }
    const std::string pattern = round % 2 == 0 ? "k" : "ab+k?";
    const RE2 reference(pattern);
    const std::size_t context = random() % 3;
    std::vector<std::string> expected;
    std::vector<bool> is_match(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
      is_match[i] = RE2::PartialMatch(lines[i], reference);
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
      bool near = false;
      for (std::size_t j = (i > context ? i - context : 0); j <= i + context && j < lines.size();
           ++j) {
        near = near || is_match[j];
      }
      if (is_match[i] || near) {
        expected.push_back(std::to_string(i + 1) + (is_match[i] ? ":" : "-") + lines[i]);
      }
    }
    ScanOptions options;
    options.context = context;
    for (const std::size_t block : {1u, 2u, 3u, 7u, 64u}) {
      options.block_bytes = block;
      const auto result = scan(text, compile(pattern), options, block);
      ASSERT_EQ(rendered(result), expected)
          << "pattern " << pattern << " block " << block << " context " << context << "\n"
          << text;
      ASSERT_EQ(result.matches,
                static_cast<std::size_t>(std::count(is_match.begin(), is_match.end(), true)));
    }
  }
}

TEST(ScanTest, ALineLongerThanTheCapIsSearchedInPiecesAndCountedOnce) {
  const std::string text = "short\n" + std::string(100, 'a') + "MATCH" + std::string(100, 'b') +
                           "MATCH" + std::string(100, 'c') + "\nafter MATCH\n";
  ScanOptions options;
  options.block_bytes = 16;
  options.max_line_bytes = 64;
  const auto result = scan(text, compile("MATCH"), options, 16);
  EXPECT_EQ(result.status, ScanStatus::kDone);
  EXPECT_EQ(result.matches, 2u);
  ASSERT_EQ(result.lines.size(), 2u);
  EXPECT_EQ(result.lines[0].number, 2u);
  EXPECT_EQ(result.lines[1].number, 3u);
  EXPECT_EQ(result.lines[1].text, "after MATCH");
}

TEST(ScanTest, BinaryFirstBlockIsSkippedAndALaterNulEndsTheSearch) {
  EXPECT_EQ(scan("match\n\0binary"s, compile("match")).status, ScanStatus::kBinary);
  ScanOptions options;
  options.block_bytes = 8;
  const auto result = scan("match 1\nmatch 2\nmatch\0 3\nmatch 4\n"s, compile("match"), options, 8);
  EXPECT_EQ(result.status, ScanStatus::kDone);
  EXPECT_TRUE(result.stopped_at_nul);
  EXPECT_EQ(rendered(result), (std::vector<std::string>{"1:match 1", "2:match 2"}));
}

TEST(ScanTest, KeepsOnlyWhatTheLimitsAllowButCountsEveryMatch) {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "match\n";
  ScanOptions options;
  options.max_kept_matches = 3;
  const auto result = scan(text, compile("match"), options);
  EXPECT_EQ(result.matches, 50u);
  EXPECT_EQ(result.kept_matches, 3u);
  EXPECT_EQ(result.lines.size(), 3u);
  options.max_kept_matches = SIZE_MAX;
  options.max_kept_bytes = 12;
  EXPECT_EQ(scan(text, compile("match"), options).lines.size(), 3u);  // 5 + 5 + 5 >= 12
}

TEST(ScanTest, StopsBetweenBlocksKeepingWhatItFound) {
  std::stop_source source;
  std::string text;
  for (int i = 0; i < 100; ++i) text += "match " + std::to_string(i) + "\n";
  const auto inner = chunked_reader(text, 16);
  const BlockReader read = [&](char* data, std::size_t size) {
    const auto count = inner(data, size);
    source.request_stop();  // after the first block
    return count;
  };
  ScanBuffer buffer;
  ScanOptions options;
  options.block_bytes = 16;
  const auto result = scan_lines(read, compile("match"), options, source.get_token(), buffer);
  EXPECT_EQ(result.status, ScanStatus::kStopped);
  EXPECT_EQ(rendered(result), (std::vector<std::string>{"1:match 0", "2:match 1"}));
}

TEST(ScanTest, ReadErrorIsReported) {
  const BlockReader failing = [](char*, std::size_t) -> std::ptrdiff_t { return -EIO; };
  ScanBuffer buffer;
  const auto result = scan_lines(failing, compile("x"), {}, {}, buffer);
  EXPECT_EQ(result.status, ScanStatus::kReadError);
  EXPECT_EQ(result.error_number, EIO);
}

TEST(ShownLineTest, ShortLinesStayWholeAndLongOnesAreCutAroundTheMatch) {
  bool cut = true;
  EXPECT_EQ(shown_line_text("plain\r", std::nullopt, cut), "plain");
  EXPECT_FALSE(cut);
  EXPECT_EQ(shown_line_text("bad \xFF byte", std::nullopt, cut), "bad \xEF\xBF\xBD byte");

  const std::string line = std::string(2000, 'x') + "NEEDLE" + std::string(2000, 'y');
  const std::string text = shown_line_text(line, MatchSpan{2000, 2006}, cut);
  EXPECT_TRUE(cut);
  EXPECT_TRUE(text.starts_with("\xE2\x80\xA6"));
  EXPECT_TRUE(text.ends_with("\xE2\x80\xA6"));
  EXPECT_NE(text.find("NEEDLE"), std::string::npos);
  EXPECT_LE(text.size(), kGrepShownLineBytes + 6);

  // Cut on character boundaries: the shown text stays valid UTF-8 without replacements.
  std::string accents;
  for (int i = 0; i < 600; ++i) accents += "é";
  const std::string start = shown_line_text(accents, std::nullopt, cut);
  EXPECT_TRUE(cut);
  EXPECT_EQ(start.find("\xEF\xBF\xBD"), std::string::npos);
  EXPECT_TRUE(start.starts_with("é"));
  const std::string middle = shown_line_text(accents, MatchSpan{701, 703}, cut);
  EXPECT_EQ(middle.find("\xEF\xBF\xBD"), std::string::npos);
}

GrepLine grep_line(std::size_t number, bool is_match, std::string text = "t") {
  return {number, is_match, false, std::move(text)};
}

FileMatches file(std::string path, std::vector<GrepLine> lines) {
  FileMatches result{std::move(path), std::move(lines)};
  for (const auto& each : result.lines) {
    result.matches += each.is_match;
    result.kept_matches += each.is_match;
    result.kept_bytes += each.text.size();
  }
  return result;
}

TEST(PathOrderTest, DirectoriesSortBeforeSiblingsThatShareTheirPrefix) {
  EXPECT_TRUE(path_less("a/b", "a.c"));
  EXPECT_TRUE(path_less("a", "a/b"));
  EXPECT_TRUE(path_less("a/z", "b/a"));
  EXPECT_FALSE(path_less("b", "a/z"));
  EXPECT_FALSE(path_less("a", "a"));
}

TEST(FormatTest, MatchAndContextLinesWithSeparators) {
  const auto formatted =
      format_matches({file("a.txt", {grep_line(1, false, "before"), grep_line(2, true, "hit"),
                                     grep_line(9, true, ""), grep_line(10, false, "after")}),
                      file("b.txt", {grep_line(4, true, "other")})},
                     {.limit = 10, .context = 1});
  EXPECT_EQ(formatted.text,
            "a.txt-1- before\na.txt:2: hit\n--\na.txt:9:\na.txt-10- after\n--\nb.txt:4: other\n");
  EXPECT_EQ(formatted.shown_matches, 3u);
  EXPECT_FALSE(formatted.output_cut);
}

TEST(FormatTest, LimitKeepsTheTrailingContextButNotTheNextMatchsLeadingContext) {
  const auto formatted =
      format_matches({file("a", {grep_line(1, true), grep_line(2, false), grep_line(3, false),
                                 grep_line(4, false), grep_line(5, true)})},
                     {.limit = 1, .context = 2});
  EXPECT_EQ(formatted.text, "a:1: t\na-2- t\na-3- t\n");
  EXPECT_EQ(formatted.shown_matches, 1u);
}

TEST(FormatTest, StopsAtTheOutputCaps) {
  std::vector<GrepLine> lines;
  for (std::size_t i = 1; i <= 100; ++i) lines.push_back(grep_line(i, true, "0123456789"));
  const auto by_bytes =
      format_matches({file("f", lines)}, {.limit = 1000, .max_bytes = 100, .max_lines = 1000});
  EXPECT_TRUE(by_bytes.output_cut);
  EXPECT_LE(by_bytes.text.size(), 100u);
  EXPECT_EQ(by_bytes.shown_matches, 6u);  // "f:N: 0123456789\n" is 16 bytes
  const auto by_lines = format_matches({file("f", lines)}, {.limit = 1000, .max_lines = 7});
  EXPECT_TRUE(by_lines.output_cut);
  EXPECT_EQ(by_lines.shown_matches, 7u);
}

TEST(CollectorTest, KeepsTheFilesThatSortFirstAndCountsAll) {
  MatchCollector collector(2, 1000);
  for (const char* name : {"d", "b", "e", "a", "c", "f"}) {
    collector.add(file(name, {grep_line(1, true)}));
  }
  EXPECT_EQ(collector.total_matches(), 6u);
  EXPECT_EQ(collector.matching_files(), 6u);
  const auto files = collector.take_sorted();
  ASSERT_GE(files.size(), 2u);
  EXPECT_LE(files.size(), 5u);  // pruned once more than twice the kept lines were held
  EXPECT_EQ(files[0].path, "a");
  EXPECT_EQ(files[1].path, "b");
  EXPECT_TRUE(std::is_sorted(files.begin(), files.end(), [](const auto& x, const auto& y) {
    return path_less(x.path, y.path);
  }));
}

}  // namespace
}  // namespace nib::tools
