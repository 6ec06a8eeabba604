// Tests of locating edits: exact and tolerant matches, failures and how they are described.

#include "tools/edit_match.hpp"

#include <gtest/gtest.h>

#include "support/text_match.hpp"
#include "tools/text_view.hpp"

namespace nib::tools {
namespace {

using testing::contains;

EditMatch match(std::string_view view, const std::string& old_text, const std::string& new_text) {
  auto located = locate_edit(view, {old_text, new_text});
  if (auto* failure = std::get_if<EditFailure>(&located)) {
    ADD_FAILURE() << "not located: " << describe_failure(view, *failure, 1);
    return {};
  }
  return std::get<EditMatch>(located);
}

EditFailure failure(std::string_view view, const std::string& old_text,
                    const std::string& new_text = "replacement") {
  auto located = locate_edit(view, {old_text, new_text});
  if (!std::holds_alternative<EditFailure>(located)) {
    ADD_FAILURE() << "unexpectedly located";
    return {};
  }
  return std::get<EditFailure>(located);
}

// The file after one edit, spliced as the edit tool does.
std::string edited(const std::string& file, const std::string& old_text,
                   const std::string& new_text) {
  const TextView view(file);
  const EditMatch found = match(view.text(), old_text, new_text);
  return view.apply(file, {{found.begin, found.end, found.replacement}});
}

// The lines of `text`, endings included.
std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size() - 1) + 1;
    result.push_back(text.substr(start, end - start));
    start = end;
  }
  return result;
}

// Expects `after` to equal `before` except for the lines [first, first + removed) of `before`,
// replaced by `added`.
void expect_only_lines_changed(const std::string& before, const std::string& after,
                               std::size_t first, std::size_t removed,
                               const std::vector<std::string>& added) {
  auto expected = lines(before);
  expected.erase(expected.begin() + static_cast<std::ptrdiff_t>(first),
                 expected.begin() + static_cast<std::ptrdiff_t>(first + removed));
  expected.insert(expected.begin() + static_cast<std::ptrdiff_t>(first), added.begin(),
                  added.end());
  EXPECT_EQ(lines(after), expected);
}

const std::string kCode =
    "int main() {\n"
    "    const char* s = \"it's\";  \n"
    "    int x = a - b;\n"
    "    if (x) {\n"
    "        return 1;\n"
    "    }\n"
    "    return 0;\n"
    "}\n";

TEST(EditMatchTest, ExactMatchFindsTheSpan) {
  const EditMatch found = match(kCode, "return 0;", "return 2;");
  EXPECT_EQ(found.begin, kCode.find("return 0;"));
  EXPECT_EQ(found.end, found.begin + 9);
  EXPECT_EQ(found.replacement, "return 2;");
  EXPECT_FALSE(found.tolerant);
  EXPECT_FALSE(found.reindented);
}

TEST(EditMatchTest, ExactMatchMayStartMidLineAndSpanLines) {
  const EditMatch found = match(kCode, "(x) {\n        return 1;", "(y) {\n        return 7;");
  EXPECT_EQ(found.begin, kCode.find("(x) {"));
  EXPECT_FALSE(found.tolerant);
}

TEST(EditMatchTest, RejectsEmptyOldTextAndNoOpEdits) {
  const EditFailure empty = failure(kCode, "");
  EXPECT_EQ(empty.kind, EditFailure::Kind::kEmptyOldText);
  EXPECT_TRUE(contains(describe_failure(kCode, empty, 1), "use the write tool"));
  const EditFailure same = failure(kCode, "return 0;", "return 0;");
  EXPECT_EQ(same.kind, EditFailure::Kind::kNoChange);
  EXPECT_TRUE(contains(describe_failure(kCode, same, 1), "identical"));
}

TEST(EditMatchTest, SeveralOccurrencesAreAmbiguousWithCountAndLines) {
  const EditFailure found = failure(kCode, "return");
  EXPECT_EQ(found.kind, EditFailure::Kind::kAmbiguous);
  EXPECT_EQ(found.count, 2u);
  EXPECT_EQ(found.lines, (std::vector<std::size_t>{5, 7}));
  EXPECT_FALSE(found.tolerant);
  EXPECT_EQ(describe_failure(kCode, found, 1),
            "oldText was found 2 times, at lines 5, 7; it must match exactly once. Add more "
            "surrounding lines to oldText to make it unique.");
}

TEST(EditMatchTest, AmbiguityListsAFewLinesButCountsAll) {
  std::string text;
  for (int i = 0; i < 25; ++i) text += "same\n";
  const EditFailure found = failure(text, "same");
  EXPECT_EQ(found.count, 25u);
  EXPECT_EQ(found.lines.size(), kMaxReportedOccurrences);
  EXPECT_TRUE(contains(describe_failure(text, found, 1), "25 times, at lines 1, 2, 3"));
  EXPECT_TRUE(contains(describe_failure(text, found, 1), "9, 10, ...;"));
}

TEST(EditMatchTest, OverlappingOccurrencesCount) {
  EXPECT_EQ(failure("aaa\n", "aa").count, 2u);
}

TEST(EditMatchTest, NotFoundOffersTheClosestRegionWithLineNumbers) {
  // Two of three lines are right; the middle one was misremembered.
  const EditFailure found = failure(kCode, "    if (x) {\n        return 2;\n    }\n");
  EXPECT_EQ(found.kind, EditFailure::Kind::kNotFound);
  ASSERT_TRUE(found.candidate);
  EXPECT_EQ(*found.candidate, (LineRange{4, 6}));
  const std::string text = describe_failure(kCode, found, 1);
  EXPECT_TRUE(contains(text, "not found")) << text;
  EXPECT_TRUE(contains(text, "lines 4-6")) << text;
  EXPECT_TRUE(contains(text, "4\t    if (x) {\n5\t        return 1;\n6\t    }\n")) << text;
}

TEST(EditMatchTest, NotFoundFindsAMisspelledSingleLine) {
  const EditFailure found = failure(kCode, "int y = a - b;");
  ASSERT_TRUE(found.candidate);
  EXPECT_EQ(*found.candidate, (LineRange{3, 3}));
}

TEST(EditMatchTest, NotFoundWithoutAnythingSimilarSaysToReadAgain) {
  const EditFailure found = failure(kCode, "completely unrelated words here");
  EXPECT_FALSE(found.candidate);
  EXPECT_TRUE(contains(describe_failure(kCode, found, 1), "Read the file again"));
}

TEST(EditMatchTest, CandidateRegionIsCutToItsLimits) {
  std::string file;
  std::string old_text;
  for (int i = 1; i <= 100; ++i) {
    file += "line number " + std::to_string(i) + "\n";
    old_text += "line number " + std::to_string(i) + (i == 50 ? " changed" : "") + "\n";
  }
  const EditFailure found = failure(file, old_text);
  ASSERT_TRUE(found.candidate);
  EXPECT_EQ(*found.candidate, (LineRange{1, 100}));
  const std::string text = describe_failure(file, found, 1);
  EXPECT_TRUE(contains(text, "\n40\tline number 40\n")) << text;
  EXPECT_FALSE(contains(text, "\n41\t")) << text;
  EXPECT_TRUE(contains(text, "[... lines 41-100 not shown; read them with offset=41]"));
}

TEST(EditMatchTest, TolerantMatchIgnoresTrailingWhitespace) {
  // The file has two trailing spaces after line 2; the model's oldText has none.
  const std::string old_text = "    const char* s = \"it's\";\n    int x";
  const EditMatch found = match(kCode, old_text, "    const char* s = \"its\";\n    int x");
  EXPECT_TRUE(found.tolerant);
  const std::string result = edited(kCode, old_text, "    const char* s = \"its\";\n    int x");
  expect_only_lines_changed(kCode, result, 1, 1, {"    const char* s = \"its\";\n"});
}

TEST(EditMatchTest, TolerantMatchIgnoresIndentationAndReindentsNewText) {
  // The model wrote the block with two-space indentation; the file uses four.
  const std::string old_text = "  if (x) {\n      return 1;\n  }";
  const std::string new_text = "  if (x) {\n      log();\n      return 1;\n  }";
  const EditMatch found = match(kCode, old_text, new_text);
  EXPECT_TRUE(found.tolerant);
  EXPECT_TRUE(found.reindented);
  EXPECT_EQ(found.begin, kCode.find("    if (x)"));
  const std::string result = edited(kCode, old_text, new_text);
  expect_only_lines_changed(
      kCode, result, 3, 3,
      {"    if (x) {\n", "        log();\n", "        return 1;\n", "    }\n"});
}

TEST(EditMatchTest, TolerantMatchWithoutIndentationGivesNewTextTheFilesIndentation) {
  const std::string result = edited(kCode, "int x = a – b;", "int x = a + b;");  // en dash
  expect_only_lines_changed(kCode, result, 2, 1, {"    int x = a + b;\n"});
}

TEST(EditMatchTest, TolerantMatchWithTheSameIndentationDoesNotDoubleIt) {
  const std::string result = edited(kCode, "    int x = a — b;", "    int x = a * b;");  // em dash
  expect_only_lines_changed(kCode, result, 2, 1, {"    int x = a * b;\n"});
}

TEST(EditMatchTest, TolerantMatchAcceptsCurlyQuotes) {
  const std::string old_text = "const char* s = “it’s”;";
  const EditMatch found = match(kCode, old_text, "const char* s = \"its\";");
  EXPECT_TRUE(found.tolerant);
  const std::string result = edited(kCode, old_text, "const char* s = \"its\";");
  // oldText had no indentation, so newText gets the file's; the trailing spaces after the
  // matched text are outside the span and stay.
  expect_only_lines_changed(kCode, result, 1, 1, {"    const char* s = \"its\";  \n"});
}

TEST(EditMatchTest, TolerantMatchTreatsNonBreakingSpacesAsSpaces) {
  const std::string file =
      "x = 1\nlabel = \"a\xC2\xA0"
      "b\"\ny = 2\n";  // NBSP in the file
  const std::string result = edited(file, "label = \"a b\"", "label = \"c d\"");
  EXPECT_EQ(result, "x = 1\nlabel = \"c d\"\ny = 2\n");
  // And the other way round: NBSP in oldText, a plain space in the file.
  const std::string result2 = edited("a b\nz\n",
                                     "a\xE2\x80\xAF"
                                     "b",
                                     "ab");
  EXPECT_EQ(result2, "ab\nz\n");
}

TEST(EditMatchTest, IndentationIsComparedOnTheFirstNonBlankLine) {
  // oldText starts with an empty line; the file's blank line has stray spaces.
  const std::string file = "a\n  \n    foo()\nb\n";
  EXPECT_EQ(edited(file, "\n  foo()", "\n  bar()"), "a\n\n    bar()\nb\n");
}

TEST(EditMatchTest, TolerantMatchHandlesMultiByteCharactersAtItsEdges) {
  // Trailing NBSP after the match stays; a match ending in "é" takes the whole character.
  EXPECT_EQ(edited("name = “café”\xC2\xA0\nnext\n", "name = \"café\"", "name = \"tea\""),
            "name = \"tea\"\xC2\xA0\nnext\n");
  EXPECT_EQ(edited("\tx = café  \nnext\n", "  x = café", "  x = tea"), "\tx = tea  \nnext\n");
  EXPECT_EQ(edited("a\n\xE3\x80\x80indented = ‘é’\nb\n", "indented = 'é'", "indented = 'e'"),
            "a\n\xE3\x80\x80indented = 'e'\nb\n");
}

TEST(EditMatchTest, TolerantMatchLeavesOtherLinesByteIdentical) {
  // Unicode punctuation elsewhere in the file must not be normalised in the result.
  const std::string file =
      "// “quoted” — comment\t \n"
      "value = compute(a – b)\n"
      "  tail ‘x’  \n";
  const std::string result = edited(file, "value = compute(a - b)", "value = compute(a + b)");
  expect_only_lines_changed(file, result, 1, 1, {"value = compute(a + b)\n"});
}

TEST(EditMatchTest, TolerantMatchIsNotUsedWhenAnExactOneExists) {
  const std::string file = "a = 'x'\nb = ‘x’\n";
  const EditMatch found = match(file, "'x'", "'y'");
  EXPECT_FALSE(found.tolerant);
  EXPECT_EQ(found.begin, 4u);
}

TEST(EditMatchTest, TolerantAmbiguityIsReported) {
  const std::string file = "  call(“a”)\ncall(\"a\")  \n";
  const EditFailure found = failure(file, "call('a')");
  EXPECT_EQ(found.kind, EditFailure::Kind::kNotFound);
  const EditFailure twice = failure(file, "call(\"a\")\t");
  EXPECT_EQ(twice.kind, EditFailure::Kind::kAmbiguous);
  EXPECT_TRUE(twice.tolerant);
  EXPECT_EQ(twice.lines, (std::vector<std::size_t>{1, 2}));
  EXPECT_TRUE(contains(describe_failure(file, twice, 1), "ignoring whitespace"));
}

TEST(EditMatchTest, WhitespaceOnlyOldTextIsNotMatchedTolerantly) {
  EXPECT_EQ(failure("a\nb\n", "   ").kind, EditFailure::Kind::kNotFound);
}

TEST(EditMatchTest, LocatesSeveralEditsInTheOriginalText) {
  auto located = locate_edits(kCode, {{"return 0;", "return 3;"}, {"int main()", "int run()"}});
  ASSERT_TRUE(std::holds_alternative<std::vector<EditMatch>>(located));
  const auto& matches = std::get<std::vector<EditMatch>>(located);
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_EQ(matches[0].index, 1u);  // sorted by position
  EXPECT_EQ(matches[1].index, 0u);
}

TEST(EditMatchTest, SeveralEditsFailOnTheFirstBadOne) {
  auto located = locate_edits(kCode, {{"return 0;", "return 3;"}, {"nowhere", "x"}});
  ASSERT_TRUE(std::holds_alternative<EditFailure>(located));
  const auto& failed = std::get<EditFailure>(located);
  EXPECT_EQ(failed.index, 1u);
  EXPECT_TRUE(describe_failure(kCode, failed, 2).starts_with("edits[1]: oldText was not found"));
}

TEST(EditMatchTest, OverlappingEditsAreRejected) {
  auto located = locate_edits(kCode, {{"int x = a - b;", "int x = 0;"}, {"a - b;\n    if", "c"}});
  ASSERT_TRUE(std::holds_alternative<EditFailure>(located));
  const auto& failed = std::get<EditFailure>(located);
  EXPECT_EQ(failed.kind, EditFailure::Kind::kOverlap);
  EXPECT_EQ(failed.index, 1u);
  EXPECT_EQ(failed.other, 0u);
  EXPECT_EQ(describe_failure(kCode, failed, 2),
            "edits[0] and edits[1] overlap (both change line 3). Combine them into one edit.");
}

TEST(EditMatchTest, AdjacentEditsDoNotOverlap) {
  auto located = locate_edits("abcdef", {{"abc", "x"}, {"def", "y"}});
  EXPECT_TRUE(std::holds_alternative<std::vector<EditMatch>>(located));
}

TEST(ClosestRegionTest, IgnoresLinesThatAppearEverywhere) {
  std::string file;
  for (int i = 0; i < 200; ++i) file += "}\n";
  file += "void target() {\n  body();\n}\n";
  const auto region = closest_region(file, "void target() {\n  other();\n}\n");
  ASSERT_TRUE(region);
  EXPECT_EQ(*region, (LineRange{201, 203}));
}

TEST(ClosestRegionTest, NothingForAnEmptyFile) {
  EXPECT_FALSE(closest_region("", "something long enough"));
}

}  // namespace
}  // namespace nib::tools
