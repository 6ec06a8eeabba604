// Tests of the model's view of a file (no BOM, "\r\n" as "\n") and of splicing back through it.

#include "tools/text_view.hpp"

#include <gtest/gtest.h>

#include <random>

namespace nib::tools {
namespace {

const std::string kBom = "\xEF\xBB\xBF";

// `original` with view[begin, end) replaced by `text`.
std::string replace(const std::string& original, std::size_t begin, std::size_t end,
                    std::string text) {
  const TextView view(original);
  return view.apply(original, {{begin, end, std::move(text)}});
}

// The view offset of `needle` in the view of `original`.
std::size_t at(const std::string& original, const std::string& needle) {
  return TextView(original).text().find(needle);
}

TEST(TextViewTest, DropsTheBomAndTheCarriageReturnsOfLineEnds) {
  const TextView view(kBom + "a\r\nb\nc\rd\r\n");
  EXPECT_TRUE(view.has_bom());
  EXPECT_EQ(view.text(), "a\nb\nc\rd\n");  // a lone "\r" is text
  EXPECT_FALSE(TextView("plain").has_bom());
  EXPECT_EQ(TextView("").text(), "");
}

TEST(TextViewTest, MapsViewOffsetsToOriginalOnes) {
  const TextView view(kBom + "ab\r\ncd\r\n");
  EXPECT_EQ(view.original_offset(0), 3u);
  EXPECT_EQ(view.original_offset(2), 5u);  // before "\r\n", not between its bytes
  EXPECT_EQ(view.original_offset(3), 7u);  // after it
  EXPECT_EQ(view.original_offset(6), 11u);
}

TEST(TextViewTest, EndingIsThatOfTheLineHoldingTheOffset) {
  const TextView view("crlf\r\nlf\nlast");
  EXPECT_EQ(view.ending_at(0), "\r\n");
  EXPECT_EQ(view.ending_at(4), "\r\n");
  EXPECT_EQ(view.ending_at(5), "\n");
  EXPECT_EQ(view.ending_at(9), "\n");  // the last line has none: the line before decides
  EXPECT_EQ(TextView("a\r\nb").ending_at(3), "\r\n");
  EXPECT_EQ(TextView("one line").ending_at(2), "\n");
}

TEST(TextViewTest, ReplacesInACrlfFileWithCrlfLineBreaks) {
  const std::string file = "one\r\ntwo\r\nthree\r\n";
  EXPECT_EQ(replace(file, at(file, "two"), at(file, "two") + 3, "2a\n2b"),
            "one\r\n2a\r\n2b\r\nthree\r\n");
  // Deleting a whole line takes its "\r\n" with it.
  EXPECT_EQ(replace(file, at(file, "two"), at(file, "three"), ""), "one\r\nthree\r\n");
}

TEST(TextViewTest, KeepsEachLinesOwnEndingInAMixedFile) {
  const std::string file = "a\r\nb\nc\r\nd\n";
  // The replacement spans all four lines but changes only "c": every ending stays as it was.
  EXPECT_EQ(replace(file, 0, TextView(file).text().size(), "a\nb\nC\nd\n"), "a\r\nb\nC\r\nd\n");
  // New lines take the ending of the line they are written into.
  EXPECT_EQ(replace(file, at(file, "b"), at(file, "b") + 1, "b\nb2"), "a\r\nb\nb2\nc\r\nd\n");
  EXPECT_EQ(replace(file, at(file, "c"), at(file, "c") + 1, "c\nc2"), "a\r\nb\nc\r\nc2\r\nd\n");
}

TEST(TextViewTest, KeepsTheBomAndAMissingFinalNewline) {
  const std::string file = kBom + "first\r\nlast";
  EXPECT_EQ(replace(file, 0, 5, "FIRST"), kBom + "FIRST\r\nlast");
  EXPECT_EQ(replace(file, at(file, "last"), at(file, "last") + 4, "end"), kBom + "first\r\nend");
  EXPECT_EQ(replace(file, at(file, "last"), at(file, "last") + 4, "last\nmore"),
            kBom + "first\r\nlast\r\nmore");
}

TEST(TextViewTest, AppliesSeveralReplacementsInOrder) {
  const std::string file = "x1\r\nx2\r\nx3\r\n";
  const TextView view(file);
  const std::string text = view.text();
  const std::string result = view.apply(file, {{text.find("x1"), text.find("x1") + 2, "y1"},
                                               {text.find("x3"), text.find("x3") + 2, "y3\nz"}});
  EXPECT_EQ(result, "y1\r\nx2\r\ny3\r\nz\r\n");
}

// Random files with mixed endings and random replacements: the result's view is the view with
// the replacement made, and the lines before and after the replaced span keep their bytes.
TEST(TextViewTest, RandomReplacementsKeepEverythingOutsideTheirSpan) {
  std::mt19937 random(12345);
  const std::vector<std::string> pieces = {"a", "b", " ", "\t", "é", "“", "x\n", "y\r\n"};
  const auto text_of = [&](int length, bool allow_newlines) {
    std::string text;
    for (int i = 0; i < length; ++i) {
      const auto& piece = pieces[random() % pieces.size()];
      if (!allow_newlines && piece.find('\n') != std::string::npos) continue;
      text += piece;
    }
    return text;
  };
  for (int round = 0; round < 2000; ++round) {
    const std::string original = (random() % 4 == 0 ? kBom : "") + text_of(random() % 30, true);
    const TextView view(original);
    const std::string& text = view.text();
    const std::size_t begin = random() % (text.size() + 1);
    const std::size_t end = begin + random() % (text.size() - begin + 1);
    std::string replacement = text_of(random() % 6, true);
    for (auto& c : replacement) c = c == '\r' ? 'r' : c;  // the model writes "\n" only
    const std::string result = view.apply(original, {{begin, end, replacement}});

    std::string expected = text;
    expected.replace(begin, end - begin, replacement);
    ASSERT_EQ(TextView(result).text(), expected) << "round " << round;
    EXPECT_EQ(TextView(result).has_bom(), view.has_bom());
    // Whole lines before `begin` and after `end` are byte-identical.
    const std::size_t head_view = begin == 0 ? 0 : text.rfind('\n', begin - 1) + 1;
    const std::size_t head = view.original_offset(head_view);
    EXPECT_EQ(result.substr(0, head), original.substr(0, head)) << "round " << round;
    const std::size_t tail_view = text.find('\n', end);
    if (tail_view != std::string::npos) {
      const std::string tail = original.substr(view.original_offset(tail_view + 1));
      EXPECT_TRUE(result.ends_with(tail)) << "round " << round;
    }
  }
}

TEST(TextViewTest, WithoutCarriageReturnsOnlyTouchesLineEnds) {
  EXPECT_EQ(without_carriage_returns("a\r\nb\rc\r\n"), "a\nb\rc\n");
  EXPECT_EQ(without_carriage_returns(""), "");
}

}  // namespace
}  // namespace nib::tools
