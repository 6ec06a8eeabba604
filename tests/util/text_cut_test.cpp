#include "util/text_cut.hpp"

#include <gtest/gtest.h>

#include "util/utf8.hpp"

namespace nib::util {
namespace {

// "ż" is two bytes (C5 BC), "€" three (E2 82 AC), "😀" four (F0 9F 98 80).
const std::string kTextCutMixed = "aż€😀b";  // 1 + 2 + 3 + 4 + 1 = 11 bytes

TEST(TextCutTest, TheMarkerCountsWhatWasLeftOut) {
  EXPECT_EQ(cut_marker(1), "… [1 more byte]");
  EXPECT_EQ(cut_marker(2), "… [2 more bytes]");
  EXPECT_EQ(cut_marker(1234567), "… [1,234,567 more bytes]");
  EXPECT_EQ(cut_marker(40, "the whole text is in /tmp/x.log"),
            "… [40 more bytes; the whole text is in /tmp/x.log]");
}

TEST(TextCutTest, TextThatFitsIsLeftAlone) {
  EXPECT_EQ(cut_text("", 0), "");
  EXPECT_EQ(cut_text("abc", 3), "abc");
  EXPECT_EQ(cut_text(kTextCutMixed, kTextCutMixed.size()), kTextCutMixed);
  EXPECT_EQ(cut_text("abc", 3, "a hint"), "abc");  // no cut, no marker, no hint
}

TEST(TextCutTest, CutsAsciiAtTheBudgetAndSaysHowMuchIsLeft) {
  EXPECT_EQ(cut_text("abcdef", 4), "abcd… [2 more bytes]");
  EXPECT_EQ(cut_text("abcdef", 0), "… [6 more bytes]");
  EXPECT_EQ(cut_text("abcdef", 5, "read the rest"), "abcde… [1 more byte; read the rest]");
}

TEST(TextCutTest, NeverSplitsACharacter) {
  // Every budget inside the text: the kept part is whole characters and valid, never longer than
  // the budget, and the count covers exactly the bytes not kept.
  for (std::size_t budget = 0; budget < kTextCutMixed.size(); ++budget) {
    const std::string cut = cut_text(kTextCutMixed, budget);
    const std::size_t marker = cut.find("… [");
    ASSERT_NE(marker, std::string::npos) << budget;
    const std::string kept = cut.substr(0, marker);
    EXPECT_LE(kept.size(), budget);
    EXPECT_TRUE(is_valid_utf8(cut)) << budget;
    EXPECT_EQ(kTextCutMixed.compare(0, kept.size(), kept), 0) << budget;
    EXPECT_EQ(cut.substr(marker), cut_marker(kTextCutMixed.size() - kept.size())) << budget;
  }
  // Budgets that end inside "€" (bytes 3 to 5) and "😀" (bytes 6 to 9) keep what comes before.
  EXPECT_EQ(cut_text(kTextCutMixed, 4), "aż… [8 more bytes]");
  EXPECT_EQ(cut_text(kTextCutMixed, 5), "aż… [8 more bytes]");
  EXPECT_EQ(cut_text(kTextCutMixed, 6), "aż€… [5 more bytes]");
  EXPECT_EQ(cut_text(kTextCutMixed, 9), "aż€… [5 more bytes]");
  EXPECT_EQ(cut_text(kTextCutMixed, 10), "aż€😀… [1 more byte]");
  EXPECT_EQ(cut_text("😀", 3), "… [4 more bytes]");
}

TEST(TextCutTest, InvalidBytesAreKeptAsTheyAreAndTheCutAddsNoneOfItsOwn) {
  // 0xFF and a stray continuation byte are single invalid bytes: the cut may fall after them.
  EXPECT_EQ(cut_text("a\xFF\x80z", 3), "a\xFF\x80… [1 more byte]");
  // A cut inside a run of continuation bytes backs off to before the byte that leads them.
  EXPECT_EQ(cut_text("ab\xC5\xBC\xBC\xBC", 4), "ab… [4 more bytes]");
  // Sanitised first, invalid input comes out valid, cut between characters.
  const std::string cut = cut_text(sanitize_utf8("ok\xC3(\xFF tail"), 6);
  EXPECT_EQ(cut, "ok\xEF\xBF\xBD(… [8 more bytes]");
  EXPECT_TRUE(is_valid_utf8(cut)) << cut;
}

}  // namespace
}  // namespace nib::util
