#include "support/tmux_session.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "support/virtual_screen.hpp"

namespace nib::testing {
namespace {

#define SKIP_WITHOUT_TMUX() \
  if (!TmuxSession::available()) GTEST_SKIP() << "tmux is not installed"

TmuxOptions shell(const std::string& script, int columns = 100, int rows = 30) {
  TmuxOptions options;
  options.command = {"/bin/sh", "-c", script};
  options.columns = columns;
  options.rows = rows;
  return options;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(TmuxSession, TypesIntoTheProgramAndReadsItsExitStatus) {
  SKIP_WITHOUT_TMUX();
  TmuxSession session(shell("printf hello; read x; echo got:$x; exit 3"));
  ASSERT_TRUE(session.wait_for_text("hello")) << session.screen();
  EXPECT_EQ(session.exit_status(), std::nullopt);
  session.type("abc");
  session.press("Enter");
  ASSERT_TRUE(session.wait_for_text("got:abc")) << session.screen();
  ASSERT_TRUE(session.wait_for_exit()) << session.screen();
  EXPECT_EQ(session.exit_status(), 3);
}

TEST(TmuxSession, TypedTextIsLiteral) {
  SKIP_WITHOUT_TMUX();
  TmuxSession session(shell("printf ready; IFS= read -r x; printf '\\n[%s]\\n' \"$x\"; read y"));
  ASSERT_TRUE(session.wait_for_text("ready")) << session.screen();
  session.type("-l Enter; 日本 \\;");
  session.press("Enter");
  EXPECT_TRUE(session.wait_for_text("[-l Enter; 日本 \\;]")) << session.screen();
}

TEST(TmuxSession, RawBytesArriveExactly) {
  SKIP_WITHOUT_TMUX();
  const std::string bytes = std::string("\x1b[200~h\xc3\xa9\r\n\x03\x04\x7f\t\x1b[201~\x1b[13;2u") +
                            std::string(1, '\0') + "\xff";
  std::string hex;
  for (const char c : bytes) {
    char buffer[3];
    std::snprintf(buffer, sizeof buffer, "%02x", static_cast<unsigned char>(c));
    hex += buffer;
  }
  // Raw mode, so the line discipline neither echoes nor interprets ^C, ^D, DEL or CR.
  TmuxSession session(shell("stty raw -echo; printf ready; x=$(head -c " +
                            std::to_string(bytes.size()) +
                            " | od -An -v -tx1 | tr -d ' \\n'); stty sane; echo; echo hex:$x:end;"
                            " read y"));
  ASSERT_TRUE(session.wait_for_text("ready")) << session.screen();
  session.send_raw(bytes);
  EXPECT_TRUE(session.wait_for_text("hex:" + hex + ":end")) << session.screen();
}

TEST(TmuxSession, PressedKeysArriveAsTheTerminalSendsThem) {
  SKIP_WITHOUT_TMUX();
  TmuxSession session(shell(
      "stty raw -echo; printf ready; x=$(head -c 8 | od -An -v -tx1 | tr -d ' \\n'); stty sane;"
      " echo; echo hex:$x:end; read y"));
  ASSERT_TRUE(session.wait_for_text("ready")) << session.screen();
  for (const char* key : {"Enter", "Escape", "C-c", "BSpace", "Tab", "Up"}) session.press(key);
  EXPECT_TRUE(session.wait_for_text("hex:0d1b037f091b5b41:end")) << session.screen();
}

TEST(TmuxSession, ControlCEndsAProgramBySignal) {
  SKIP_WITHOUT_TMUX();
  TmuxSession session(shell("printf ready; exec sleep 1000"));
  ASSERT_TRUE(session.wait_for_text("ready")) << session.screen();
  session.press("C-c");
  ASSERT_TRUE(session.wait_for_exit()) << session.screen();
  EXPECT_EQ(session.exit_status(), 130);
}

TEST(TmuxSession, StartsWithTheRequestedSizeAndFollowsResizes) {
  SKIP_WITHOUT_TMUX();
  TmuxSession session(
      shell("while :; do echo size:$(stty size):$(tput cols); read x; done", 100, 30));
  ASSERT_TRUE(session.wait_for_text("size:30 100:100")) << session.screen();
  EXPECT_EQ(lines_of(session.screen()).size(), 30u);
  session.resize(60, 20);
  session.press("Enter");
  ASSERT_TRUE(session.wait_for_text("size:20 60:60")) << session.screen();
  EXPECT_EQ(lines_of(session.screen()).size(), 20u);
  // A second resize at once, which tmux holds back for a moment: keys still arrive after it.
  session.resize(70, 24);
  session.press("Enter");
  ASSERT_TRUE(session.wait_for_text("size:24 70:70")) << session.screen();
}

TEST(TmuxSession, TheProgramSeesOnlyTheGivenEnvironment) {
  SKIP_WITHOUT_TMUX();
  TempDir dir;
  TmuxOptions options =
      shell("echo \"env:$FOO|$TERM|$HOME|$LANG|${OPENAI_API_KEY-unset}|$(pwd)\"; read x");
  options.env = {{"FOO", "bar baz"}};
  options.cwd = dir.path();
  TmuxSession session(options);
  EXPECT_TRUE(session.wait_for_text("env:bar baz|xterm-256color|" + dir.path().string() +
                                    "|C.UTF-8|unset|" + dir.path().string()))
      << session.screen();
}

TEST(TmuxSession, HistoryKeepsWhatScrolledOffAndColorsAreCaptured) {
  SKIP_WITHOUT_TMUX();
  TmuxSession session(
      shell("i=1; while [ $i -le 15 ]; do echo line$i; i=$((i+1)); done;"
            " printf '\\033[31mred\\033[0m\\n'; read x",
            40, 5));
  ASSERT_TRUE(session.wait_for_text("red")) << session.screen();
  EXPECT_FALSE(contains(session.screen(), "line1\n"));
  const std::string history = session.history();
  EXPECT_TRUE(contains(history, "line1\nline2\n")) << history;
  EXPECT_TRUE(contains(history, "line15\nred\n")) << history;
  EXPECT_TRUE(contains(session.screen_with_colors(), "\x1b[31mred"))
      << session.screen_with_colors();
}

TEST(TmuxSession, LeavesNoProcessBehindEvenWhenTheProgramIgnoresHangUp) {
  SKIP_WITHOUT_TMUX();
  pid_t program = -1;
  pid_t child = -1;
  {
    TmuxSession session(shell("trap '' HUP; sleep 1000 & echo child:$!; wait"));
    ASSERT_TRUE(session.wait_for_text("child:")) << session.screen();
    const std::string screen = session.screen();
    child = std::stoi(screen.substr(screen.find("child:") + 6));
    program = session.pane_pid();
    ASSERT_TRUE(process_running(program));
    ASSERT_TRUE(process_running(child));
  }
  EXPECT_FALSE(process_running(program));
  EXPECT_FALSE(process_running(child));
}

// The virtual screen and a real terminal (tmux) show the same picture for the same bytes.
TEST(TmuxSession, AgreesWithTheVirtualScreen) {
  SKIP_WITHOUT_TMUX();
  constexpr int kColumns = 20, kRows = 6;
  const std::string stream =
      "first line\r\n"
      "a row that is longer than twenty columns wraps\r\n"
      "12345678901234567890\r\nexact fit above\r\n"
      "abcdefghijklmnopqrs日wide wraps before\r\n"
      "\x1b[1;31mbold red\x1b[0m \xe6\x97\xa5\xe6\x9c\xac e\xcc\x81\r\n"
      "tab\tstop\x1b[2A\x1b[3Gup\x1b[K\x1b[2B\r\n"
      "\x1b"
      "7saved\x1b[1;1Htop\x1b"
      "8 restored\r\n"
      "erase me\x1b[6G\x1b[1K\r\n"
      "\x1b[?25l\x1b[?2004h\x1b]0;title\x07\x1b[Jend";
  TempDir dir;
  dir.write("stream", stream);
  TmuxOptions options = shell("stty -opost; cat stream; read x", kColumns, kRows);
  options.cwd = dir.path();
  TmuxSession session(options);
  VirtualScreen model(kColumns, kRows);
  model.feed(stream);
  ASSERT_TRUE(session.wait_for_text("end")) << session.screen();
  EXPECT_EQ(session.screen(), [&] {
    std::string rows;
    for (const std::string& row : model.rows()) rows += row + "\n";
    return rows;
  }());
  std::string history = session.history();
  while (history.ends_with("\n\n")) history.pop_back();
  EXPECT_EQ(history, model.text() + "\n");
  EXPECT_TRUE(model.unknown_sequences().empty());
}

}  // namespace
}  // namespace nib::testing
