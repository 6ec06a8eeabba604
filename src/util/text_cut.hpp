#pragma once
// Cutting text to a byte budget and saying so: the one way nib shortens text that the model, a
// person or a log reads. The cut falls between characters, never inside a UTF-8 sequence, and
// one marker says how much was left out, "… [1,234 more bytes]", with what to do about it when
// the caller knows ("… [1,234 more bytes; the whole text is in /tmp/x.log]"). Text fitted to a
// fixed width without a marker (a terminal column, a file name) is cut with utf8_prefix_length
// alone. Bytes that were not valid UTF-8 stay as they were: sanitize_utf8 first where the text
// must be valid. Pure; thread-safe.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace nib::util {

// The marker that ends cut text: "… [1,234 more bytes]", "… [1 more byte]", or with a hint
// "… [1,234 more bytes; HINT]".
std::string cut_marker(std::uint64_t left_out_bytes, std::string_view hint = {});

// `text` itself when it has at most max_bytes; else its longest prefix of at most max_bytes that
// does not split a UTF-8 sequence, followed by cut_marker() of the bytes left out (the marker
// comes on top of max_bytes).
std::string cut_text(std::string_view text, std::size_t max_bytes, std::string_view hint = {});

}  // namespace nib::util
