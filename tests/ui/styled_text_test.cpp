#include "ui/styled_text.hpp"

#include <gtest/gtest.h>

namespace nib::ui {
namespace {

std::vector<std::string> unstyled(const StyledLines& rows) {
  std::vector<std::string> out;
  for (const StyledLine& row : rows) out.push_back(row.plain());
  return out;
}

TEST(Wrap, BreaksAtSpacesAndDropsThem) {
  EXPECT_EQ(unstyled(wrap(styled("the quick brown fox"), 10)),
            (std::vector<std::string>{"the quick", "brown fox"}));
  EXPECT_EQ(unstyled(wrap(styled("a  b"), 1)), (std::vector<std::string>{"a", "b"}));
}

TEST(Wrap, CutsAWordLongerThanARow) {
  EXPECT_EQ(unstyled(wrap(styled("abcdefgh"), 3)), (std::vector<std::string>{"abc", "def", "gh"}));
}

TEST(Wrap, NeverSplitsAWideCharacter) {
  EXPECT_EQ(unstyled(wrap(styled("日本語"), 5)), (std::vector<std::string>{"日本", "語"}));
  EXPECT_EQ(unstyled(wrap(styled("日"), 1)), (std::vector<std::string>{"日"}));
}

TEST(Wrap, IndentsContinuationRowsAndKeepsStyles) {
  StyledLine line;
  line.add("- ", {}).add("bold words here", {.bold = true});
  const StyledLines rows = wrap(line, 9, styled("  "));
  ASSERT_EQ(unstyled(rows), (std::vector<std::string>{"- bold", "  words", "  here"}));
  EXPECT_TRUE(rows[1].spans.back().style.bold);
}

TEST(Wrap, EmptyLineGivesOneEmptyRow) {
  EXPECT_EQ(wrap(StyledLine{}, 10).size(), 1u);
}

TEST(Truncate, EndsWithAnEllipsis) {
  EXPECT_EQ(truncate(styled("abcdef"), 4).plain(), "abc…");
  EXPECT_EQ(truncate(styled("abc"), 4).plain(), "abc");
}

TEST(ToAnsi, WrapsStyledSpansInSgr) {
  StyledLine line;
  line.add("plain ").add("red", {.color = Color::kRed, .bold = true});
  EXPECT_EQ(to_ansi(line), "plain \x1b[1;31mred\x1b[0m");
}

TEST(PrintableLines, ExpandsTabsAndNeutralisesControls) {
  EXPECT_EQ(printable_lines("a\tb\r\nc\x1b[2Jd"), (std::vector<std::string>{"a   b", "c?[2Jd"}));
}

}  // namespace
}  // namespace nib::ui
