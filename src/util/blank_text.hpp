#pragma once
// Blanks in text people type or write in files: spaces, tabs and line ends (ASCII only, so no
// locale is consulted). Pure; thread-safe.

#include <string_view>

namespace nib::util {

// ' ', '\t', '\n' or '\r'.
bool is_blank(char c);

// `text` without leading and trailing blanks.
std::string_view trim_blanks(std::string_view text);

}  // namespace nib::util
