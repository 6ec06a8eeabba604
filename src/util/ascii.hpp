#pragma once
// ASCII case and whitespace helpers for protocol text (header values, charset labels, tag
// names), where only ASCII letters and spaces count. Pure functions; thread-safe.

#include <string>
#include <string_view>

namespace nib::util {

// `text` with A-Z lowered; other bytes kept.
std::string ascii_lower(std::string_view text);

// `text` without the ASCII whitespace (space, \t, \n, \v, \f, \r) at its ends.
std::string_view ascii_trim(std::string_view text);

}  // namespace nib::util
