#include "util/charset.hpp"

#include <iconv.h>

#include <cerrno>
#include <optional>

#include "util/ascii.hpp"
#include "util/utf8.hpp"

namespace nib::util {
namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool is_utf8_label(const std::string& label) {
  return label.empty() || label == "utf-8" || label == "utf8" || label == "unicode-1-1-utf-8";
}

// The name iconv is given for a charset label.
std::string iconv_name(const std::string& label) {
  if (label == "iso-8859-1" || label == "iso8859-1" || label == "latin1" || label == "l1" ||
      label == "us-ascii" || label == "ascii" || label == "iso_8859-1") {
    return "WINDOWS-1252";
  }
  return label;
}

// `bytes` converted from `from` by iconv, or nothing when iconv does not know `from`.
std::optional<std::string> convert(std::string_view bytes, const std::string& from) {
  const iconv_t converter = iconv_open("UTF-8", from.c_str());
  if (converter == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 2);
  char buffer[16 * 1024];
  // iconv's interface takes non-const input pointers but does not write through them.
  char* in = const_cast<char*>(bytes.data());
  std::size_t in_left = bytes.size();
  while (in_left > 0) {
    char* next = buffer;
    std::size_t room = sizeof(buffer);
    const std::size_t done = iconv(converter, &in, &in_left, &next, &room);
    out.append(buffer, static_cast<std::size_t>(next - buffer));
    if (done != static_cast<std::size_t>(-1)) continue;
    if (errno == E2BIG) continue;  // the buffer is full; go on with an empty one
    // EILSEQ: an invalid sequence; EINVAL: one cut off by the end. Replace one byte and go on.
    out += kReplacement;
    ++in;
    --in_left;
    iconv(converter, nullptr, nullptr, nullptr, nullptr);  // back to the initial shift state
  }
  iconv_close(converter);
  return out;
}

}  // namespace

DecodedText decode_to_utf8(std::string_view bytes, std::string_view charset) {
  std::string label = ascii_lower(ascii_trim(charset));
  if (bytes.starts_with("\xEF\xBB\xBF")) {
    bytes.remove_prefix(3);
    label = "utf-8";
  } else if (bytes.starts_with("\xFE\xFF")) {
    bytes.remove_prefix(2);
    label = "utf-16be";
  } else if (bytes.starts_with("\xFF\xFE")) {
    bytes.remove_prefix(2);
    label = "utf-16le";
  }
  if (is_utf8_label(label)) return {sanitize_utf8(bytes), true};
  if (std::optional<std::string> converted = convert(bytes, iconv_name(label))) {
    return {std::move(*converted), true};
  }
  return {sanitize_utf8(bytes), false};
}

std::string charset_parameter(std::string_view content_type) {
  std::size_t pos = 0;
  while ((pos = content_type.find(';', pos)) != std::string_view::npos) {
    ++pos;
    const std::size_t end = content_type.find(';', pos);
    const std::string_view parameter = ascii_trim(content_type.substr(pos, end - pos));
    const std::size_t equals = parameter.find('=');
    if (equals != std::string_view::npos &&
        ascii_lower(ascii_trim(parameter.substr(0, equals))) == "charset") {
      std::string_view value = ascii_trim(parameter.substr(equals + 1));
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        value = value.substr(1, value.size() - 2);
      }
      return std::string(value);
    }
  }
  return "";
}

}  // namespace nib::util
