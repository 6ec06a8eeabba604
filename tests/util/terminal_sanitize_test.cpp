#include "util/terminal_sanitize.hpp"

#include <gtest/gtest.h>

namespace nib::util {
namespace {

TEST(TerminalSanitize, PlainTextIsUnchanged) {
  EXPECT_EQ(sanitize_terminal_output("hello\n\tworld\n"), "hello\n\tworld\n");
  EXPECT_EQ(sanitize_terminal_output("żółw 🐢\n"), "żółw 🐢\n");
  EXPECT_EQ(sanitize_terminal_output(""), "");
}

TEST(TerminalSanitize, InvalidUtf8BecomesReplacementCharacter) {
  EXPECT_EQ(sanitize_terminal_output("a\xff"
                                     "b\n"),
            "a\xEF\xBF\xBD"
            "b\n");
  EXPECT_EQ(sanitize_terminal_output("\xC3"), "\xEF\xBF\xBD");  // cut-off sequence
  EXPECT_EQ(sanitize_terminal_output("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(TerminalSanitize, CsiSequencesAreRemoved) {
  EXPECT_EQ(sanitize_terminal_output("\x1b[31mred\x1b[0m plain\n"), "red plain\n");
  EXPECT_EQ(sanitize_terminal_output("\x1b[1;32;40mX\x1b[?25l\x1b[2K\x1b[10;5H"), "X");
  EXPECT_EQ(sanitize_terminal_output("a\x1b[>4;2mb"), "ab");
}

TEST(TerminalSanitize, OscAndOtherStringSequencesAreRemoved) {
  EXPECT_EQ(sanitize_terminal_output("\x1b]0;window title\x07text"), "text");
  EXPECT_EQ(sanitize_terminal_output("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ end"), "link end");
  EXPECT_EQ(sanitize_terminal_output("\x1bPq#0;2;0;0;0\x1b\\after"), "after");
  EXPECT_EQ(sanitize_terminal_output("\x1b_apc\x1b\\x"), "x");
}

TEST(TerminalSanitize, UnterminatedStringSequenceEndsAtNewline) {
  EXPECT_EQ(sanitize_terminal_output("\x1b]0;title never ends\nnext line\n"), "\nnext line\n");
}

TEST(TerminalSanitize, TwoByteEscapesAreRemoved) {
  EXPECT_EQ(sanitize_terminal_output("\x1b(Bx\x1b"
                                     "7y\x1b"
                                     "8\x1b=z"),
            "xyz");
  EXPECT_EQ(sanitize_terminal_output("trailing\x1b"), "trailing");
}

TEST(TerminalSanitize, ControlCharactersAreDroppedExceptNewlineAndTab) {
  EXPECT_EQ(sanitize_terminal_output(std::string("a\0b\x01\x07\x0b\x0c\x7f"
                                                 "c\td\n",
                                                 12)),
            "abc\td\n");
  EXPECT_EQ(sanitize_terminal_output("x\xC2\x85y\xC2\x9B"
                                     "z"),
            "xyz");  // C1 controls
}

TEST(TerminalSanitize, CarriageReturnKeepsFinalStateOfProgressLine) {
  EXPECT_EQ(sanitize_terminal_output("10%\r50%\r100%\ndone\n"), "100%\ndone\n");
  EXPECT_EQ(sanitize_terminal_output("downloading...\rdone\n"), "done\n");
  EXPECT_EQ(sanitize_terminal_output("\r\x1b[Kstep 2"), "step 2");
}

TEST(TerminalSanitize, CrlfAndTrailingCarriageReturnKeepTheLine) {
  EXPECT_EQ(sanitize_terminal_output("one\r\ntwo\r\n"), "one\ntwo\n");
  EXPECT_EQ(sanitize_terminal_output("last\r"), "last");
}

TEST(TerminalSanitize, BackspaceErasesPreviousCharacter) {
  EXPECT_EQ(sanitize_terminal_output("abc\b\bX\n"), "aX\n");
  EXPECT_EQ(sanitize_terminal_output("ż\bz"), "z");
  EXPECT_EQ(sanitize_terminal_output("line\n\bnext"), "line\nnext");  // not across lines
}

TEST(TerminalSanitize, NewlineCountIsPreserved) {
  const std::string raw = "a\r\n\x1b]0;t\nb\x1b[31m\n\r\n\xff\n";
  const std::string clean = sanitize_terminal_output(raw);
  EXPECT_EQ(std::count(raw.begin(), raw.end(), '\n'), std::count(clean.begin(), clean.end(), '\n'));
}

}  // namespace
}  // namespace nib::util
