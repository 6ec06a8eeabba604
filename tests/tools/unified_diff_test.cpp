// Tests of the unified diffs edit and write show in the UI.

#include "tools/unified_diff.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace nib::tools {
namespace {

std::string numbered(int first, int last) {
  std::string text;
  for (int i = first; i <= last; ++i) text += "line " + std::to_string(i) + "\n";
  return text;
}

TEST(UnifiedDiffTest, EqualTextsGiveNothing) {
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "f", "f"), "");
}

TEST(UnifiedDiffTest, OneChangedLineWithThreeLinesOfContext) {
  const std::string before = numbered(1, 10);
  std::string after = before;
  after.replace(after.find("line 5\n"), 7, "five\n");
  EXPECT_EQ(unified_diff(before, after, "a.txt", "a.txt"),
            "--- a.txt\n+++ a.txt\n"
            "@@ -2,7 +2,7 @@\n"
            " line 2\n line 3\n line 4\n-line 5\n+five\n line 6\n line 7\n line 8\n");
}

TEST(UnifiedDiffTest, DistantChangesGetSeparateHunksAndCloseOnesShareOne) {
  const std::string before = numbered(1, 30);
  std::string after = before;
  after.replace(after.find("line 3\n"), 7, "three\n");
  after.replace(after.find("line 9\n"), 7, "nine\n");  // 5 lines apart: same hunk
  after.replace(after.find("line 25\n"), 8, "");       // far away: its own hunk
  EXPECT_EQ(unified_diff(before, after, "f", "f"),
            "--- f\n+++ f\n"
            "@@ -1,12 +1,12 @@\n"
            " line 1\n line 2\n-line 3\n+three\n line 4\n line 5\n line 6\n line 7\n line 8\n"
            "-line 9\n+nine\n line 10\n line 11\n line 12\n"
            "@@ -22,7 +22,6 @@\n"
            " line 22\n line 23\n line 24\n-line 25\n line 26\n line 27\n line 28\n");
}

TEST(UnifiedDiffTest, InsertionAtTheStartAndANewFile) {
  EXPECT_EQ(unified_diff("b\n", "a\nb\n", "f", "f"), "--- f\n+++ f\n@@ -1 +1,2 @@\n+a\n b\n");
  EXPECT_EQ(unified_diff("", "x\ny\n", "/dev/null", "new.txt"),
            "--- /dev/null\n+++ new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n");
}

TEST(UnifiedDiffTest, MarksAMissingFinalNewline) {
  EXPECT_EQ(unified_diff("a\nb", "a\nb\n", "f", "f"),
            "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
  EXPECT_EQ(unified_diff("a\nold", "a\nnew", "f", "f"),
            "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-old\n\\ No newline at end of file\n+new\n"
            "\\ No newline at end of file\n");
}

TEST(UnifiedDiffTest, ASmallChangeInAHugeFileIsCheap) {
  const std::string before = numbered(1, 200'000);
  std::string after = before;
  after.replace(after.find("line 100000\n"), 12, "changed\n");
  const std::string diff = unified_diff(before, after, "f", "f");
  EXPECT_EQ(diff,
            "--- f\n+++ f\n@@ -99997,7 +99997,7 @@\n line 99997\n line 99998\n line 99999\n"
            "-line 100000\n+changed\n line 100001\n line 100002\n line 100003\n");
}

TEST(UnifiedDiffTest, AHugeRewriteIsShownAsRemovedAndAddedAndCut) {
  const std::string before = numbered(1, kMaxDiffLines);
  const std::string after = numbered(kMaxDiffLines + 1, 2 * kMaxDiffLines);
  const std::string diff = unified_diff(before, after, "f", "f");
  EXPECT_TRUE(diff.starts_with("--- f\n+++ f\n@@ -1,8000 +1,8000 @@\n-line 1\n-line 2\n"))
      << diff.substr(0, 200);
  EXPECT_LE(diff.size(), kMaxDiffBytes + 100);
  EXPECT_TRUE(diff.ends_with("\n[diff cut at 256 KB]\n") || diff.size() < kMaxDiffBytes);
}

TEST(UnifiedDiffTest, DiffIsCutAtItsByteLimit) {
  const std::string line(kMaxDiffBytes / 10, 'x');
  std::string many;
  for (int i = 0; i < 20; ++i) many += line + "\n";
  const std::string diff = unified_diff("", many, "/dev/null", "f");
  EXPECT_LE(diff.size(), kMaxDiffBytes + 100);
  EXPECT_TRUE(diff.ends_with("\n[diff cut at 256 KB]\n"));
}

TEST(UnifiedDiffHeadTest, IsTheDiffsFirstLinesAndCountsTheRest) {
  const std::string before = numbered(1, 30);
  std::string after = before;
  after.replace(after.find("line 3\n"), 7, "three\n");
  after.replace(after.find("line 25\n"), 8, "");
  const std::string whole = unified_diff(before, after, "f", "f");
  const DiffHead head = unified_diff_head(before, after, "f", "f", 5);
  EXPECT_EQ(head.text, "--- f\n+++ f\n@@ -1,6 +1,6 @@\n line 1\n line 2\n");
  EXPECT_TRUE(whole.starts_with(head.text));
  EXPECT_EQ(head.omitted_lines,
            static_cast<std::size_t>(std::count(whole.begin(), whole.end(), '\n')) - 5);

  const DiffHead all = unified_diff_head(before, after, "f", "f", 100);
  EXPECT_EQ(all.text, whole);
  EXPECT_EQ(all.omitted_lines, 0u);
  EXPECT_EQ(unified_diff_head("same\n", "same\n", "f", "f", 5).text, "");
}

TEST(UnifiedDiffHeadTest, CutsLongLinesOnACharacterBoundaryAndCountsTheNoNewlineMarker) {
  const std::string long_line = std::string(kPreviewLineBytes - 5, 'x') + "éééé";
  const DiffHead head = unified_diff_head("", long_line, "/dev/null", "f", 10);
  EXPECT_EQ(head.text, "--- /dev/null\n+++ f\n@@ -0,0 +1 @@\n+" +
                           std::string(kPreviewLineBytes - 5, 'x') + "…\n" +
                           "\\ No newline at end of file\n");
  EXPECT_EQ(head.omitted_lines, 0u);
}

}  // namespace
}  // namespace nib::tools
