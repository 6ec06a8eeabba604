#pragma once
// Text in a declared character set (an HTTP charset, an HTML <meta charset>) as UTF-8, through
// the C library's iconv. Bytes that are not valid in the character set become U+FFFD, so the
// result is always valid UTF-8. Pure functions; thread-safe (each call opens its own converter).

#include <string>
#include <string_view>

namespace nib::util {

struct DecodedText {
  std::string text;   // valid UTF-8
  bool known = true;  // false: the character set is unknown, and `text` was read as UTF-8
};

// `bytes` decoded from `charset` (any spelling iconv knows: "utf-8", "Shift_JIS", "latin1"),
// UTF-8 when `charset` is empty. As browsers do (the WHATWG Encoding standard), "iso-8859-1",
// "latin1" and "us-ascii" are read as windows-1252, their superset that pages labelled so use.
// A byte order mark at the start decides over `charset` and is dropped.
DecodedText decode_to_utf8(std::string_view bytes, std::string_view charset);

// The value of the "charset" parameter of a Content-Type ("text/html; charset=UTF-8" ->
// "UTF-8"), or "" when it has none.
std::string charset_parameter(std::string_view content_type);

}  // namespace nib::util
