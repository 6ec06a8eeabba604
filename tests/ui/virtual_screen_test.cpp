#include "support/virtual_screen.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace nib::testing {
namespace {

using Rows = std::vector<std::string>;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// A screen of `columns` x `rows` fed `bytes` in one piece.
VirtualScreen fed(int columns, int rows, std::string_view bytes) {
  VirtualScreen screen(columns, rows);
  screen.feed(bytes);
  return screen;
}

// Everything a test can observe, to compare two screens.
std::string snapshot(const VirtualScreen& screen, int columns, int rows) {
  std::string out = screen.text();
  out += "|cursor " + std::to_string(screen.cursor_row()) + "," +
         std::to_string(screen.cursor_column()) + (screen.cursor_visible() ? " on" : " off") +
         (screen.bracketed_paste() ? " paste" : "");
  for (int row = 0; row < rows; ++row) {
    for (int column = 0; column < columns; ++column) {
      const CellStyle style = screen.style_at(row, column);
      out += style.bold ? 'b' : '-';
      out += style.dim ? 'd' : '-';
      out += style.inverse ? 'i' : '-';
      out += std::to_string(style.color);
    }
  }
  for (const std::string& unknown : screen.unknown_sequences()) out += "|" + unknown;
  return out;
}

TEST(VirtualScreen, PrintsTextAndMovesTheCursor) {
  const VirtualScreen screen = fed(10, 3, "hello");
  EXPECT_EQ(screen.rows(), (Rows{"hello", "", ""}));
  EXPECT_EQ(screen.cursor_row(), 0);
  EXPECT_EQ(screen.cursor_column(), 5);
  EXPECT_TRUE(screen.cursor_visible());
  EXPECT_THAT(screen.scrollback(), IsEmpty());
  EXPECT_THAT(screen.unknown_sequences(), IsEmpty());
}

TEST(VirtualScreen, SplitFeedsGiveTheSamePicture) {
  const std::string bytes =
      "\x1b[1;31mred\x1b[0m \xe6\x97\xa5\xe6\x9c\xac e\xcc\x81\r\n"  // bold red, 日本, é
      "\x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\r\n"
      "\x1b[?25l\x1b[?2004h\x1b[2;3H\x1b[7mX\x1b[27m\x1b[K\x1b[5G\x1b[1K"
      "\x1b"
      "7\x1b[HY\x1b"
      "8Z\x1b[?2026h\x1b[3;1H\xf0\x9f\x8e\x89!\x1b[?2026l\x1b[38;5;1m";
  constexpr int kColumns = 12, kRows = 4;
  const std::string whole = snapshot(fed(kColumns, kRows, bytes), kColumns, kRows);
  for (std::size_t split = 1; split < bytes.size(); ++split) {
    VirtualScreen screen(kColumns, kRows);
    screen.feed(std::string_view(bytes).substr(0, split));
    screen.feed(std::string_view(bytes).substr(split));
    ASSERT_EQ(snapshot(screen, kColumns, kRows), whole) << "split at byte " << split;
  }
  VirtualScreen bytewise(kColumns, kRows);
  for (const char byte : bytes) bytewise.feed(std::string_view(&byte, 1));
  EXPECT_EQ(snapshot(bytewise, kColumns, kRows), whole);
  EXPECT_EQ(bytewise.bytes_fed(), bytes.size());
}

TEST(VirtualScreen, AutoWrapWaitsInTheLastColumnUntilTheNextCharacter) {
  VirtualScreen screen(5, 3);
  screen.feed("abcde");
  EXPECT_EQ(screen.rows(), (Rows{"abcde", "", ""}));
  EXPECT_EQ(screen.cursor_row(), 0);
  EXPECT_EQ(screen.cursor_column(), 4);
  screen.feed("f");
  EXPECT_EQ(screen.rows(), (Rows{"abcde", "f", ""}));
  EXPECT_EQ(screen.cursor_row(), 1);
  EXPECT_EQ(screen.cursor_column(), 1);
}

TEST(VirtualScreen, CarriageReturnAfterAFullRowDoesNotAddABlankRow) {
  const VirtualScreen screen = fed(5, 3, "abcde\r\nfghij\r\nk");
  EXPECT_EQ(screen.rows(), (Rows{"abcde", "fghij", "k"}));
}

TEST(VirtualScreen, CursorMovesCancelThePendingWrap) {
  EXPECT_TRUE(fed(5, 2, "abcde").wrap_pending());
  EXPECT_FALSE(fed(5, 2, "abcde\r").wrap_pending());
  EXPECT_EQ(fed(5, 2, "abcde\x1b[1GX").rows(), (Rows{"Xbcde", ""}));
  EXPECT_EQ(fed(5, 2, "abcde\bX").rows(), (Rows{"abcXe", ""}));
  EXPECT_EQ(fed(5, 3, "abcde\nX").rows(), (Rows{"abcde", "    X", ""}));
  EXPECT_EQ(fed(5, 3, "abcde\x1b[AX").rows(), (Rows{"abcdX", "", ""}));
}

// As in xterm: erasing to the right ends the pending wrap (and takes the last character).
TEST(VirtualScreen, ErasingKeepsThePendingWrapExceptToTheRight) {
  EXPECT_EQ(fed(5, 2, "abcde\x1b[KX").rows(), (Rows{"abcdX", ""}));
  EXPECT_EQ(fed(5, 2, "abcde\x1b[JX").rows(), (Rows{"abcdX", ""}));
  EXPECT_EQ(fed(5, 2, "abcde\x1b[1KX").rows(), (Rows{"", "X"}));
  EXPECT_EQ(fed(5, 2, "abcde\x1b[2KX").rows(), (Rows{"", "X"}));
  EXPECT_EQ(fed(5, 3, "abcde\x1b[2JX").rows(), (Rows{"    X", "", ""}));
}

TEST(VirtualScreen, TabKeepsThePendingWrap) {
  EXPECT_EQ(fed(5, 2, "abcde\tX").rows(), (Rows{"abcde", "X"}));
}

TEST(VirtualScreen, LineFeedAtTheBottomScrollsTheTopRowIntoScrollback) {
  const VirtualScreen screen = fed(10, 3, "one\r\ntwo\r\nthree\r\nfour\r\nfive");
  EXPECT_EQ(screen.scrollback(), (Rows{"one", "two"}));
  EXPECT_EQ(screen.rows(), (Rows{"three", "four", "five"}));
  EXPECT_EQ(screen.all_rows(), (Rows{"one", "two", "three", "four", "five"}));
  EXPECT_EQ(screen.text(), "one\ntwo\nthree\nfour\nfive");
  EXPECT_EQ(screen.cursor_row(), 2);
}

TEST(VirtualScreen, WrappingAtTheBottomScrollsToo) {
  const VirtualScreen screen = fed(3, 2, "abcdefghi");
  EXPECT_EQ(screen.scrollback(), (Rows{"abc"}));
  EXPECT_EQ(screen.rows(), (Rows{"def", "ghi"}));
}

TEST(VirtualScreen, LineFeedKeepsTheColumn) {
  EXPECT_EQ(fed(10, 3, "ab\ncd").rows(), (Rows{"ab", "  cd", ""}));
  EXPECT_EQ(fed(10, 3, "ab\vc\fd").rows(), (Rows{"ab", "  c", "   d"}));
}

TEST(VirtualScreen, AllRowsDropsOnlyTheEmptyRowsAtTheBottom) {
  const VirtualScreen screen = fed(10, 5, "a\r\n\r\nb\r\n");
  EXPECT_EQ(screen.all_rows(), (Rows{"a", "", "b"}));
  EXPECT_EQ(screen.text(), "a\n\nb");
}

TEST(VirtualScreen, WideCharactersTakeTwoCells) {
  const VirtualScreen screen = fed(10, 2, "日本x");
  EXPECT_EQ(screen.rows()[0], "日本x");
  EXPECT_EQ(screen.cursor_column(), 5);
}

TEST(VirtualScreen, WideCharacterThatDoesNotFitWrapsBeforeIt) {
  const VirtualScreen wrapped = fed(5, 2, "abcd日");
  EXPECT_EQ(wrapped.rows(), (Rows{"abcd", "日"}));
  EXPECT_EQ(wrapped.cursor_row(), 1);
  EXPECT_EQ(wrapped.cursor_column(), 2);

  VirtualScreen exact(5, 2);
  exact.feed("abc日");
  EXPECT_EQ(exact.rows(), (Rows{"abc日", ""}));
  EXPECT_EQ(exact.cursor_column(), 4);  // pending wrap
  exact.feed("d");
  EXPECT_EQ(exact.rows(), (Rows{"abc日", "d"}));
}

TEST(VirtualScreen, OverwritingHalfAWideCharacterBlanksTheOtherHalf) {
  EXPECT_EQ(fed(10, 1, "日本\rx").rows()[0], "x 本");
  EXPECT_EQ(fed(10, 1, "日本\x1b[2Gy").rows()[0], " y本");
  EXPECT_EQ(fed(10, 1, "a日本\x1b[2G語").rows()[0], "a語本");
  EXPECT_EQ(fed(10, 1, "日本\x1b[2G\x1b[K").rows()[0], "");
}

TEST(VirtualScreen, ZeroWidthCharactersJoinThePreviousCell) {
  const VirtualScreen combined = fed(10, 1, "e\xcc\x81x");  // e + U+0301
  EXPECT_EQ(combined.rows()[0], "e\xcc\x81x");
  EXPECT_EQ(combined.cursor_column(), 2);
  EXPECT_EQ(fed(3, 2, "abc\xcc\x81").rows(), (Rows{"abc\xcc\x81", ""}));  // in pending wrap
  EXPECT_EQ(fed(10, 1, "日\xcc\x81").rows()[0], "日\xcc\x81");
  EXPECT_EQ(fed(10, 1,
                "\xcc\x81"
                "a")
                .rows()[0],
            "a");  // nothing to join at the left edge
}

TEST(VirtualScreen, InvalidUtf8ShowsAsReplacementCharacters) {
  EXPECT_EQ(fed(10, 1,
                "a\xff"
                "b\xe6\x97"
                "c")
                .rows()[0],
            "a\xef\xbf\xbd"
            "b\xef\xbf\xbd\xef\xbf\xbd"
            "c");
}

TEST(VirtualScreen, CarriageReturnBackspaceAndTab) {
  EXPECT_EQ(fed(20, 1, "abc\rX").rows()[0], "Xbc");
  EXPECT_EQ(fed(20, 1, "abc\bX").rows()[0], "abX");
  EXPECT_EQ(fed(20, 1, "\bX").rows()[0], "X");  // clamped at the left edge
  EXPECT_EQ(fed(20, 1, "a\tb").rows()[0], "a       b");
  EXPECT_EQ(fed(20, 1, "12345678\tb").rows()[0], "12345678        b");
  const VirtualScreen clamped = fed(10, 1, "\t\t\tX");
  EXPECT_EQ(clamped.rows()[0], "         X");
  EXPECT_EQ(fed(20, 1,
                "a\x07"
                "b")
                .rows()[0],
            "ab");
}

TEST(VirtualScreen, CursorMovementSequencesAreClamped) {
  VirtualScreen screen(10, 5);
  const auto at = [&](std::string_view bytes) {
    screen.feed(bytes);
    return std::pair{screen.cursor_row(), screen.cursor_column()};
  };
  using Position = std::pair<int, int>;
  EXPECT_EQ(at("\x1b[3;4H"), (Position{2, 3}));
  EXPECT_EQ(at("\x1b[A"), (Position{1, 3}));
  EXPECT_EQ(at("\x1b[5A"), (Position{0, 3}));
  EXPECT_EQ(at("\x1b[2B"), (Position{2, 3}));
  EXPECT_EQ(at("\x1b[9B"), (Position{4, 3}));
  EXPECT_EQ(at("\x1b[C"), (Position{4, 4}));
  EXPECT_EQ(at("\x1b[20C"), (Position{4, 9}));
  EXPECT_EQ(at("\x1b[3D"), (Position{4, 6}));
  EXPECT_EQ(at("\x1b[0D"), (Position{4, 5}));  // 0 counts as 1
  EXPECT_EQ(at("\x1b[99D"), (Position{4, 0}));
  EXPECT_EQ(at("\x1b[5G"), (Position{4, 4}));
  EXPECT_EQ(at("\x1b[2F"), (Position{2, 0}));
  EXPECT_EQ(at("\x1b[4G\x1b[E"), (Position{3, 0}));
  EXPECT_EQ(at("\x1b[9E"), (Position{4, 0}));
  EXPECT_EQ(at("\x1b[9F"), (Position{0, 0}));
  EXPECT_EQ(at("\x1b[99;99f"), (Position{4, 9}));
  EXPECT_EQ(at("\x1b[H"), (Position{0, 0}));
  EXPECT_EQ(at("\x1b[;5H"), (Position{0, 4}));
  EXPECT_EQ(at("\x1b[G"), (Position{0, 0}));
  EXPECT_THAT(screen.unknown_sequences(), IsEmpty());
}

TEST(VirtualScreen, EraseInLine) {
  EXPECT_EQ(fed(10, 1, "abcdef\x1b[4G\x1b[K").rows()[0], "abc");
  EXPECT_EQ(fed(10, 1, "abcdef\x1b[4G\x1b[0K").rows()[0], "abc");
  EXPECT_EQ(fed(10, 1, "abcdef\x1b[4G\x1b[1K").rows()[0], "    ef");
  EXPECT_EQ(fed(10, 1, "abcdef\x1b[4G\x1b[2K").rows()[0], "");
  const VirtualScreen screen = fed(10, 1, "abcdef\x1b[4G\x1b[2K");
  EXPECT_EQ(screen.cursor_column(), 3);  // erasing does not move the cursor
}

TEST(VirtualScreen, EraseInDisplay) {
  const std::string three_rows = "aaa\r\nbbb\r\nccc\x1b[2;2H";
  EXPECT_EQ(fed(5, 3, three_rows + "\x1b[J").rows(), (Rows{"aaa", "b", ""}));
  EXPECT_EQ(fed(5, 3, three_rows + "\x1b[0J").rows(), (Rows{"aaa", "b", ""}));
  EXPECT_EQ(fed(5, 3, three_rows + "\x1b[1J").rows(), (Rows{"", "  b", "ccc"}));
  const VirtualScreen cleared = fed(5, 3, three_rows + "\x1b[2J");
  EXPECT_EQ(cleared.rows(), (Rows{"", "", ""}));
  EXPECT_EQ(cleared.cursor_row(), 1);
  EXPECT_EQ(cleared.cursor_column(), 1);
  EXPECT_EQ(cleared.full_clears(), 1);
}

TEST(VirtualScreen, EraseScrollbackClearsOnlyTheScrollback) {
  VirtualScreen screen(5, 2);
  screen.feed("1\r\n2\r\n3");
  EXPECT_EQ(screen.scrollback(), (Rows{"1"}));
  screen.feed("\x1b[3J");
  EXPECT_THAT(screen.scrollback(), IsEmpty());
  EXPECT_EQ(screen.rows(), (Rows{"2", "3"}));
  EXPECT_EQ(screen.full_clears(), 1);
}

TEST(VirtualScreen, CountersMeasureWhatWasFedSinceTheLastClear) {
  VirtualScreen screen(5, 2);
  screen.feed("\x1b[2J\x1b[3Jab");
  EXPECT_EQ(screen.full_clears(), 2);
  EXPECT_EQ(screen.bytes_fed(), 10u);
  screen.clear_counters();
  EXPECT_EQ(screen.full_clears(), 0);
  EXPECT_EQ(screen.bytes_fed(), 0u);
  screen.feed("\x1b[Kc");
  EXPECT_EQ(screen.full_clears(), 0);
  EXPECT_EQ(screen.bytes_fed(), 4u);
}

TEST(VirtualScreen, SelectGraphicRenditionSetsCellStyles) {
  const VirtualScreen screen =
      fed(20, 1,
          "\x1b[1ma\x1b[2mb\x1b[22mc\x1b[3;4md\x1b[23;24me\x1b[7mf\x1b[27mg"
          "\x1b[31mh\x1b[39mi\x1b[90mj\x1b[97;1mk\x1b[0ml\x1b[1;32mm\x1b[mn");
  EXPECT_EQ(screen.rows()[0], "abcdefghijklmn");
  const auto style = [&](int column) { return screen.style_at(0, column); };
  EXPECT_EQ(style(0), (CellStyle{.bold = true}));
  EXPECT_EQ(style(1), (CellStyle{.bold = true, .dim = true}));
  EXPECT_EQ(style(2), CellStyle{});
  EXPECT_EQ(style(3), (CellStyle{.italic = true, .underline = true}));
  EXPECT_EQ(style(4), CellStyle{});
  EXPECT_EQ(style(5), (CellStyle{.inverse = true}));
  EXPECT_EQ(style(6), CellStyle{});
  EXPECT_EQ(style(7), (CellStyle{.color = 31}));
  EXPECT_EQ(style(8), CellStyle{});
  EXPECT_EQ(style(9), (CellStyle{.color = 90}));
  EXPECT_EQ(style(10), (CellStyle{.bold = true, .color = 97}));
  EXPECT_EQ(style(11), CellStyle{});
  EXPECT_EQ(style(12), (CellStyle{.bold = true, .color = 32}));
  EXPECT_EQ(style(13), CellStyle{});
  EXPECT_EQ(style(14), CellStyle{});  // never written
  EXPECT_THAT(screen.unknown_sequences(), IsEmpty());
}

TEST(VirtualScreen, BothHalvesOfAWideCharacterCarryItsStyle) {
  const VirtualScreen screen = fed(10, 1, "\x1b[33m日");
  EXPECT_EQ(screen.style_at(0, 0).color, 33);
  EXPECT_EQ(screen.style_at(0, 1).color, 33);
}

TEST(VirtualScreen, ErasedCellsLoseTheirStyle) {
  const VirtualScreen screen = fed(10, 1, "\x1b[1;31mabc\x1b[1G\x1b[K");
  EXPECT_EQ(screen.style_at(0, 0), CellStyle{});
}

TEST(VirtualScreen, UnsupportedRenditionsAreReportedAndTheRestApplied) {
  const VirtualScreen screen = fed(10, 1, "\x1b[38;5;196;1mx\x1b[48;2;1;2;3;4my\x1b[41mz");
  EXPECT_EQ(screen.style_at(0, 0), (CellStyle{.bold = true}));
  EXPECT_EQ(screen.style_at(0, 1), (CellStyle{.bold = true, .underline = true}));
  EXPECT_THAT(screen.unknown_sequences(),
              ElementsAre("\x1b[38;5;196;1m", "\x1b[48;2;1;2;3;4m", "\x1b[41m"));
}

TEST(VirtualScreen, SaveAndRestoreCursorKeepPositionAndStyle) {
  for (const auto& [save, restore] : {std::pair{"\x1b[s", "\x1b[u"}, std::pair{"\x1b"
                                                                               "7",
                                                                               "\x1b"
                                                                               "8"}}) {
    VirtualScreen screen(10, 3);
    screen.feed(std::string("\x1b[2;3H\x1b[1m") + save + "\x1b[0m\x1b[3;1Hzz" + restore + "X");
    EXPECT_EQ(screen.rows(), (Rows{"", "  X", "zz"})) << save;
    EXPECT_TRUE(screen.style_at(1, 2).bold) << save;
    EXPECT_EQ(screen.cursor_row(), 1);
    EXPECT_EQ(screen.cursor_column(), 3);
  }
}

TEST(VirtualScreen, RestoreWithoutSaveGoesHome) {
  const VirtualScreen screen = fed(10, 3, "\x1b[2;3H\x1b[u");
  EXPECT_EQ(screen.cursor_row(), 0);
  EXPECT_EQ(screen.cursor_column(), 0);
}

TEST(VirtualScreen, RestoreKeepsThePendingWrap) {
  EXPECT_EQ(fed(3, 3,
                "abc\x1b"
                "7\x1b[3;1H\x1b"
                "8d")
                .rows(),
            (Rows{"abc", "d", ""}));
}

TEST(VirtualScreen, PrivateModesSetCursorVisibilityAndBracketedPaste) {
  VirtualScreen screen(10, 2);
  screen.feed("\x1b[?25l\x1b[?2004h");
  EXPECT_FALSE(screen.cursor_visible());
  EXPECT_TRUE(screen.bracketed_paste());
  screen.feed("\x1b[?25h\x1b[?2004l");
  EXPECT_TRUE(screen.cursor_visible());
  EXPECT_FALSE(screen.bracketed_paste());
  screen.feed("\x1b[?2026h\x1b[?1;1000h\x1b[?2026l\x1b[?7727l");
  EXPECT_EQ(screen.rows(), (Rows{"", ""}));
  EXPECT_THAT(screen.unknown_sequences(), IsEmpty());
}

TEST(VirtualScreen, OperatingSystemCommandsAreConsumedSilently) {
  const VirtualScreen screen = fed(20, 1,
                                   "\x1b]0;window title\x07"
                                   "a\x1b]8;;https://x.y/\x1b\\link\x1b]8;;\x1b\\b");
  EXPECT_EQ(screen.rows()[0], "alinkb");
  EXPECT_THAT(screen.unknown_sequences(), IsEmpty());
}

TEST(VirtualScreen, UnknownSequencesAreConsumedAndRecorded) {
  const VirtualScreen screen =
      fed(20, 2, "a\x1b[2;5rb\x1bMc\x1b[>1ud\x1bPq#0\x1b\\e\x1b[4hf\x1b(0g\x1b[1:2mh\x1b(Bi");
  EXPECT_EQ(screen.rows()[0], "abcdefghi");
  EXPECT_THAT(screen.unknown_sequences(), ElementsAre("\x1b[2;5r", "\x1bM", "\x1b[>1u", "\x1bPq#0",
                                                      "\x1b[4h", "\x1b(0", "\x1b[1:2m"));
}

TEST(VirtualScreen, ControlCharactersInsideASequenceStillAct) {
  const VirtualScreen screen = fed(10, 2, "ab\x1b[\r2Cc");
  EXPECT_EQ(screen.rows()[0], "abc");  // without the CR: "ab  c"
}

TEST(VirtualScreen, ShrinkingColumnsCutsRows) {
  VirtualScreen screen(10, 2);
  screen.feed("abcdefgh\r\nab日本");
  screen.resize(5, 2);
  EXPECT_EQ(screen.rows(), (Rows{"abcde", "ab日"}));
  EXPECT_EQ(screen.cursor_column(), 4);
  screen.resize(3, 2);
  EXPECT_EQ(screen.rows(), (Rows{"abc", "ab"}));  // the wide character cut in half goes
  screen.resize(8, 2);
  EXPECT_EQ(screen.rows(), (Rows{"abc", "ab"}));
  screen.feed("\x1b[1;8HZ");
  EXPECT_EQ(screen.rows(), (Rows{"abc    Z", "ab"}));
}

TEST(VirtualScreen, ShrinkingRowsPushesTopRowsToScrollbackToKeepTheCursorVisible) {
  VirtualScreen screen(10, 4);
  screen.feed("1\r\n2\r\n3\r\n4\x1b[3;1H");
  screen.resize(10, 2);
  EXPECT_EQ(screen.scrollback(), (Rows{"1"}));
  EXPECT_EQ(screen.rows(), (Rows{"2", "3"}));  // "4" below the cursor is cut
  EXPECT_EQ(screen.cursor_row(), 1);

  VirtualScreen top(10, 4);
  top.feed("1\r\n2\x1b[H");
  top.resize(10, 2);
  EXPECT_THAT(top.scrollback(), IsEmpty());
  EXPECT_EQ(top.rows(), (Rows{"1", "2"}));
}

TEST(VirtualScreen, GrowingRowsAddsBlankRowsAtTheBottom) {
  VirtualScreen screen(10, 2);
  screen.feed("1\r\n2");
  screen.resize(10, 4);
  EXPECT_EQ(screen.rows(), (Rows{"1", "2", "", ""}));
  EXPECT_EQ(screen.cursor_row(), 1);
  screen.feed("\r\n3\r\n4\r\n5");
  EXPECT_EQ(screen.scrollback(), (Rows{"1"}));
  EXPECT_EQ(screen.rows(), (Rows{"2", "3", "4", "5"}));
}

TEST(VirtualScreen, ResizeEndsThePendingWrap) {
  VirtualScreen screen(3, 2);
  screen.feed("abc");
  screen.resize(5, 2);
  screen.feed("d");
  EXPECT_EQ(screen.rows(), (Rows{"abd", ""}));
}

TEST(VirtualScreen, StyleAtOutsideTheScreenThrows) {
  const VirtualScreen screen(3, 2);
  EXPECT_THROW(screen.style_at(2, 0), std::out_of_range);
  EXPECT_THROW(screen.style_at(0, -1), std::out_of_range);
}

}  // namespace
}  // namespace nib::testing
