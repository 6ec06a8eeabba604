#include "util/display_width.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <clocale>
#include <csignal>
#include <cstdint>
#include <cwchar>
#include <utility>

#include "util/fd_io.hpp"
#include "util/utf8.hpp"

namespace nib::util {
namespace {

TEST(DisplayWidth, CountsWideAndZeroWidthCharacters) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("日本"), 4u);
  EXPECT_EQ(display_width("e\u0301"), 1u);  // e + combining acute
  EXPECT_EQ(display_width("🎉"), 2u);
  EXPECT_EQ(display_width("\xff"), 1u);
  EXPECT_EQ(prefix_fitting("日本語", 5), 6u);  // two characters, four columns
}

// Characters a short hand-written table (before utf8proc) counted wrongly.
TEST(DisplayWidth, FollowsUnicodeDataForAllScripts) {
  EXPECT_EQ(display_width("\u0915\u0941"), 1u);  // Devanagari KA + vowel sign U (a nonspacing mark)
  EXPECT_EQ(display_width("\u05E9\u05C1"), 1u);  // Hebrew SHIN + SHIN DOT
  EXPECT_EQ(display_width("\u304B\u3099"), 2u);  // HIRAGANA KA + combining voiced sound mark
  EXPECT_EQ(display_width("a\u2066b"), 2u);      // LEFT-TO-RIGHT ISOLATE, a format character
  EXPECT_EQ(display_width("\u845B\U000E0100"), 2u);  // an ideograph + VARIATION SELECTOR-17
  // Emoji presented as emoji by default take two columns, those presented as text one.
  EXPECT_EQ(display_width("\u2705"), 2u);      // WHITE HEAVY CHECK MARK
  EXPECT_EQ(display_width("\U0001F7E0"), 2u);  // LARGE ORANGE CIRCLE
  EXPECT_EQ(display_width("\U0001FA90"), 2u);  // RINGED PLANET
  EXPECT_EQ(display_width("\U0001F321"), 1u);  // THERMOMETER
  // East Asian wide punctuation and scripts beyond the Basic Multilingual Plane.
  EXPECT_EQ(display_width("\uFE50"), 2u);      // SMALL COMMA
  EXPECT_EQ(display_width("\U0001B000"), 2u);  // KATAKANA LETTER ARCHAIC E
}

// What terminals do and utf8proc's widths alone would not say.
TEST(DisplayWidth, KeepsTheTerminalRulesUtf8procLacks) {
  EXPECT_EQ(display_width("\u0915\u093E"), 2u);  // KA + vowel sign AA, a spacing mark
  EXPECT_EQ(codepoint_width(0x3FFFD), 2);   // unassigned, in a plane East Asian Width makes wide
  EXPECT_EQ(codepoint_width(0x110000), 1);  // beyond Unicode
  EXPECT_EQ(display_width("\t\x1b\u0085\x7f"), 0u);  // C0 and C1 controls and DEL
}

// glibc's wcwidth(3) under C.UTF-8 is an independent reading of the same Unicode data; on these
// blocks terminals and both agree.
TEST(DisplayWidth, AgreesWithGlibcOnCommonBlocks) {
  if (std::setlocale(LC_CTYPE, "C.UTF-8") == nullptr) GTEST_SKIP() << "no C.UTF-8 locale";
  const std::pair<char32_t, char32_t> blocks[] = {
      {0x00A0, 0x036F},    // Latin-1, Latin Extended, IPA, combining diacritics
      {0x0370, 0x052F},    // Greek, Cyrillic
      {0x0900, 0x097F},    // Devanagari
      {0x3040, 0x30FF},    // Hiragana, Katakana
      {0x4E00, 0x9FFF},    // CJK Unified Ideographs
      {0xAC00, 0xD7A3},    // Hangul syllables
      {0xFF00, 0xFFEF},    // Halfwidth and Fullwidth Forms
      {0x1F300, 0x1F64F},  // Miscellaneous Symbols and Pictographs, Emoticons
      {0x1F900, 0x1F9FF},  // Supplemental Symbols and Pictographs
  };
  for (const auto& [first, last] : blocks) {
    for (char32_t codepoint = first; codepoint <= last; ++codepoint) {
      const int expected = wcwidth(static_cast<wchar_t>(codepoint));
      if (expected < 0) continue;  // unassigned in glibc's Unicode version
      EXPECT_EQ(codepoint_width(codepoint), expected)
          << std::hex << "U+" << static_cast<std::uint32_t>(codepoint);
    }
  }
  std::setlocale(LC_CTYPE, "C");
}

TEST(Utf8, EncodeIsTheInverseOfDecode) {
  for (const char32_t codepoint : {U'a', U'é', U'語', U'🎉', char32_t{0x7F}, char32_t{0x10FFFF}}) {
    const std::string bytes = encode_utf8(codepoint);
    std::size_t length = 0;
    EXPECT_EQ(decode_utf8(bytes, 0, length), codepoint);
    EXPECT_EQ(length, bytes.size());
  }
  EXPECT_EQ(encode_utf8(U'€'), "\xE2\x82\xAC");
}

TEST(FdIo, WriteAllWritesEverythingOrSaysItFailed) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  EXPECT_TRUE(write_all(fds[1], "hello"));
  char buffer[8] = {};
  EXPECT_EQ(read(fds[0], buffer, sizeof buffer), 5);
  EXPECT_EQ(std::string(buffer, 5), "hello");
  close(fds[0]);
  signal(SIGPIPE, SIG_IGN);
  EXPECT_FALSE(write_all(fds[1], "nobody reads"));
  close(fds[1]);
}

}  // namespace
}  // namespace nib::util
