#pragma once
// Base64 (RFC 4648, standard alphabet, with padding): how image attachments travel to the
// model services. Pure functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>

namespace nib::util {

// `bytes` encoded as base64 with '=' padding and no line breaks.
std::string base64_encode(std::string_view bytes);

// The bytes `text` encodes, or nullopt when it is not padded standard base64 (whitespace is
// not accepted either).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace nib::util
