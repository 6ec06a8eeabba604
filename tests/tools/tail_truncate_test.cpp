#include "tools/tail_truncate.hpp"

#include <gtest/gtest.h>

#include <string>

namespace nib::tools {
namespace {

TEST(CountLines, CountsALastLineWithoutNewline) {
  EXPECT_EQ(count_lines(""), 0u);
  EXPECT_EQ(count_lines("a"), 1u);
  EXPECT_EQ(count_lines("a\n"), 1u);
  EXPECT_EQ(count_lines("a\nb"), 2u);
  EXPECT_EQ(count_lines("\n\n"), 2u);
}

TEST(CutTail, KeepsEverythingThatFits) {
  const TailCut cut = cut_tail("a\nb\nc\n", 3, 100);
  EXPECT_EQ(cut.start, 0u);
  EXPECT_EQ(cut.lines_kept, 3u);
  EXPECT_FALSE(cut.cut);
  EXPECT_FALSE(cut.partial_line);
}

TEST(CutTail, KeepsTheLastLinesByCount) {
  const std::string text = "one\ntwo\nthree\nfour\n";
  const TailCut cut = cut_tail(text, 2, 100);
  EXPECT_EQ(text.substr(cut.start), "three\nfour\n");
  EXPECT_EQ(cut.lines_kept, 2u);
  EXPECT_TRUE(cut.cut);
}

TEST(CutTail, KeepsWholeLinesWithinTheByteLimit) {
  const std::string text = "one\ntwo\nthree\nfour";
  const TailCut cut = cut_tail(text, 100, 11);  // "three\nfour" is 10 bytes
  EXPECT_EQ(text.substr(cut.start), "three\nfour");
  EXPECT_EQ(cut.lines_kept, 2u);
  EXPECT_FALSE(cut.partial_line);
}

TEST(CutTail, KeepsTheEndOfAnOverlongLastLine) {
  const std::string text = "short\n" + std::string(100, 'x') + "\xC5\xBC";
  const TailCut cut = cut_tail(text, 10, 5);
  EXPECT_TRUE(cut.partial_line);
  EXPECT_EQ(cut.lines_kept, 1u);
  EXPECT_EQ(text.substr(cut.start), "xxx\xC5\xBC");
  const TailCut split = cut_tail(text, 10, 1);  // never starts inside a UTF-8 sequence
  EXPECT_EQ(text.substr(split.start), "");
}

TEST(CutTail, ZeroBudgetKeepsNothing) {
  const TailCut cut = cut_tail("abc\n", 0, 100);
  EXPECT_EQ(cut.start, 4u);
  EXPECT_EQ(cut.lines_kept, 0u);
  EXPECT_TRUE(cut.cut);
}

}  // namespace
}  // namespace nib::tools
