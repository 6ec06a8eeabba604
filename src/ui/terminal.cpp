#include "ui/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <csignal>

#include "util/fd_io.hpp"

namespace nib::ui {
namespace {

// Bracketed paste, so a paste is one edit and its newlines do not send it; and distinct codes
// for modified keys (xterm's modifyOtherKeys, kitty's "disambiguate" level) so that
// Shift+Enter can mean a new line. Terminals ignore the modes they do not know.
constexpr std::string_view kEnterModes = "\x1b[?2004h\x1b[>4;1m\x1b[>1u";
constexpr std::string_view kLeaveModes = "\x1b[<u\x1b[>4m\x1b[?2004l\x1b[?25h";

}  // namespace

TerminalSize terminal_size(int fd) {
  winsize size{};
  if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0 || size.ws_row == 0) return {};
  return {size.ws_col, size.ws_row};
}

namespace {

termios raw_mode(termios mode) {
  mode.c_iflag &= ~static_cast<tcflag_t>(ICRNL | IXON | INLCR | IGNCR);
  mode.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO | ISIG | IEXTEN);
  mode.c_cc[VMIN] = 1;
  mode.c_cc[VTIME] = 0;
  return mode;
}

}  // namespace

RawTerminal::RawTerminal(int input, int output) : input_(input), output_(output) {
  if (tcgetattr(input_, &saved_) != 0) return;
  const termios raw = raw_mode(saved_);
  if (tcsetattr(input_, TCSADRAIN, &raw) != 0) return;
  ok_ = true;
  util::write_all(output_, kEnterModes);
}

void RawTerminal::suspend() {
  if (!ok_) return;
  util::write_all(output_, kLeaveModes);
  tcsetattr(input_, TCSADRAIN, &saved_);
  kill(getpid(), SIGTSTP);  // returns once continued (SIGCONT)
  const termios raw = raw_mode(saved_);
  tcsetattr(input_, TCSADRAIN, &raw);
  util::write_all(output_, kEnterModes);
}

RawTerminal::~RawTerminal() {
  restore();
}

void RawTerminal::restore() {
  // Once only, whichever thread gets here first (the UI thread or a forced quit).
  if (!ok_ || restored_.exchange(true)) return;
  util::write_all(output_, kLeaveModes);
  tcsetattr(input_, TCSADRAIN, &saved_);
}

}  // namespace nib::ui
