#pragma once
// Turns what a program wrote for a terminal into plain text for the model: valid UTF-8 without
// escape sequences or control characters. Pure functions; thread-safe.

#include <string>
#include <string_view>

namespace nib::util {

// `raw` as plain text:
// - invalid UTF-8 bytes become U+FFFD;
// - escape sequences (CSI such as colours and cursor moves, OSC such as titles and hyperlinks,
//   DCS/SOS/PM/APC strings, two-byte ESC sequences) are removed; an unterminated string
//   sequence ends at the next newline so it cannot swallow the rest of the output;
// - "\r" followed by more text on the same line replaces that line, so a progress bar drawn
//   with carriage returns shows only its final state; "\r\n" and a trailing "\r" keep the line;
// - backspace erases the character before it on the same line;
// - every other C0 control, DEL and the C1 controls (U+0080..U+009F) are dropped; "\n" and
//   "\t" are kept.
// Never adds or removes a "\n", so line counts are the same before and after.
std::string sanitize_terminal_output(std::string_view raw);

}  // namespace nib::util
