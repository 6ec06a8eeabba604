#pragma once
// Turns the bytes a raw-mode terminal sends (termios ICANON, ECHO, ISIG, IXON and ICRNL off)
// into keys: typed text, bracketed pastes, control keys and the escape sequences of the common
// terminals (xterm, VTE, kitty's CSI u, xterm's modifyOtherKeys, rxvt, the Linux console).
// Pure: no terminal access and no clock (the caller calls flush() after a short quiet spell).
// Not thread-safe: one decoder per input stream, used from one thread.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nib::ui {

enum class KeyCode {
  kText,     // printable characters typed (valid UTF-8, no control characters)
  kPaste,    // a bracketed paste's whole content, raw bytes as pasted
  kEnter,    // submit
  kNewline,  // insert a line break: Ctrl-J, Shift/Alt/Ctrl+Enter
  kBackspace,
  kDelete,
  kLeft,
  kRight,
  kUp,
  kDown,
  kHome,
  kEnd,
  kWordLeft,
  kWordRight,
  kDeleteWordBack,
  kDeleteWordForward,
  kPageUp,
  kPageDown,
  kTab,
  kShiftTab,
  kEscape,
  kCtrl,  // any other control key: `ctrl` holds its letter
};

struct Key {
  KeyCode code;
  std::string text;  // kText and kPaste only
  // kCtrl only: the letter in lower case ('c' for 0x03), or '@', '\\', ']', '^', '_' for
  // 0x00 and 0x1c-0x1f.
  char ctrl = 0;
  bool operator==(const Key&) const = default;
};

// An unterminated escape sequence longer than this is junk (no key sends one): it is skipped
// up to its final byte instead of being held, which keeps the decoder's memory bounded.
inline constexpr std::size_t kMaxSequenceBytes = 64;

class KeyDecoder {
 public:
  // Decodes as much of the bytes received so far as is complete, in order. Consecutive printable
  // characters become one kText. An incomplete tail (a lone ESC, a sequence or UTF-8 character
  // cut by the read) is kept for the next feed. Sequences that are not keys (focus reports,
  // mouse reports, unmapped function keys) are consumed and never become text.
  std::vector<Key> feed(std::string_view bytes);

  // True when bytes are held back that flush() would resolve: the caller then calls flush()
  // when nothing more arrives shortly (~25 ms). A paste in progress is not pending: it ends
  // only at its end marker, however slowly it arrives.
  bool has_pending() const;

  // Resolves held-back bytes after a quiet spell: a lone ESC becomes kEscape (the Escape key
  // itself); any other partial sequence or character is dropped.
  std::vector<Key> flush();

 private:
  // Decodes pending_ from the front into `keys`, leaving the incomplete tail in pending_.
  void decode(std::vector<Key>& keys);
  // Moves paste bytes from pending_[pos...] into paste_; returns the new position.
  std::size_t take_paste(std::size_t pos, std::vector<Key>& keys);
  // Skips the rest of an overlong sequence; returns the new position.
  std::size_t skip_overlong(std::size_t pos);

  std::string pending_;    // bytes received but not decoded yet
  std::string paste_;      // the content of the paste in progress
  bool in_paste_ = false;  // between ESC[200~ and ESC[201~
  bool skipping_ = false;  // inside an overlong sequence, until its final byte
};

}  // namespace nib::ui
