#pragma once
// How many terminal columns text takes. Pure functions; thread-safe.
//
// Widths come from utf8proc's Unicode tables (East Asian Width, emoji presentation, combining
// and format characters), not from wcwidth(3): wcwidth depends on the process locale, and the
// renderer's line arithmetic must agree with itself whatever the user's LANG says. The few rules
// terminals follow and utf8proc does not are kept in codepoint_width().

#include <cstddef>
#include <string_view>

namespace nib::util {

// Columns of one code point: 0 for control characters, nonspacing and enclosing marks and
// format characters (zero-width space, joiners, variation selectors), 2 for East Asian wide and
// fullwidth characters and emoji presented as emoji by default, 1 otherwise (spacing marks and
// values beyond Unicode included).
int codepoint_width(char32_t codepoint);

// The code point at text[pos] and its byte length; an invalid byte decodes as U+FFFD, length 1.
char32_t decode_utf8(std::string_view text, std::size_t pos, std::size_t& length);

// Columns of a UTF-8 string (invalid bytes count as one column each, like U+FFFD).
std::size_t display_width(std::string_view text);

// The longest prefix of `text` (in bytes, never splitting a character) that fits `columns`.
std::size_t prefix_fitting(std::string_view text, std::size_t columns);

}  // namespace nib::util
