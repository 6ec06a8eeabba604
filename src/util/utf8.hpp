#pragma once
// UTF-8 helpers. Pure functions; thread-safe.

#include <cstddef>
#include <string>
#include <string_view>

namespace nib::util {

// Length of the valid UTF-8 sequence starting at text[pos], or 0 when the bytes there are not
// a valid (shortest-form, non-surrogate) sequence or are cut off by the end of `text`.
std::size_t utf8_sequence_length(std::string_view text, std::size_t pos);

// True when the whole of `text` is valid UTF-8.
bool is_valid_utf8(std::string_view text);

// `text` with every invalid byte replaced by U+FFFD.
std::string sanitize_utf8(std::string_view text);

// The largest prefix length <= max_bytes that does not split a UTF-8 sequence.
std::size_t utf8_prefix_length(std::string_view text, std::size_t max_bytes);

// The UTF-8 bytes of `codepoint` (which must be a valid scalar value).
std::string encode_utf8(char32_t codepoint);

// The start of the shortest suffix of at most max_bytes that does not begin inside a sequence.
std::size_t utf8_suffix_start(std::string_view text, std::size_t max_bytes);

}  // namespace nib::util
