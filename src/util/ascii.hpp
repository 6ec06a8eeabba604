#pragma once
// ASCII case and whitespace helpers for protocol text (header values, charset labels, tag
// names) and for messages nib writes, where only ASCII letters and spaces count. Pure functions;
// thread-safe.

#include <string>
#include <string_view>

namespace nib::util {

// `text` with A-Z lowered; other bytes kept.
std::string ascii_lower(std::string_view text);

// `text` with its first byte upper-cased if it is a-z (a message that starts a sentence);
// empty stays empty.
std::string ascii_capitalized(std::string text);

// `text` without the ASCII whitespace (space, \t, \n, \v, \f, \r) at its ends.
std::string_view ascii_trim(std::string_view text);
// `text` without the ASCII whitespace at its end.
std::string_view ascii_trim_end(std::string_view text);

}  // namespace nib::util
