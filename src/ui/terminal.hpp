#pragma once
// The terminal nib's interactive mode talks to: raw input mode for the duration of a session,
// its size, and writing without losing bytes. Restores the terminal's settings however the
// session ends (destructor, or restore() from the code that ends the process). One per
// process, owned by the UI thread; restore() may be called from any thread.

#include <atomic>
#include <cstddef>
#include <string_view>

#include <termios.h>

namespace nib::ui {

struct TerminalSize {
  std::size_t columns = 80;
  std::size_t rows = 24;
};

// The size of the terminal on `fd` (80x24 when it cannot be asked).
TerminalSize terminal_size(int fd);

class RawTerminal {
 public:
  // Switches `input` to raw mode (no echo, no line editing, no signals from Ctrl-C/Ctrl-Z: nib
  // reads them as keys) and turns on bracketed paste on `output`.
  RawTerminal(int input, int output);
  ~RawTerminal();
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;

  bool ok() const { return ok_; }
  // Ctrl-Z: puts the terminal back as it was and stops the process (SIGTSTP) until the shell
  // continues it; then raw mode again. The caller redraws.
  void suspend();
  // Puts the terminal back as it was (idempotent). Async-signal-safe.
  void restore();

 private:
  int input_;
  int output_;
  termios saved_{};
  bool ok_ = false;
  std::atomic<bool> restored_ = false;
};

}  // namespace nib::ui
