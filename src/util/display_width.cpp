#include "util/display_width.hpp"

#include <utf8proc.h>

#include "util/utf8.hpp"

namespace nib::util {
namespace {

// East Asian Width makes these two planes Wide as a whole, unassigned code points included
// (EastAsianWidth.txt's @missing lines), so an ideograph newer than the library's Unicode data
// still takes two columns; utf8proc counts every unassigned code point as one.
bool in_ideographic_planes(char32_t codepoint) {
  return codepoint >= 0x20000 && codepoint <= 0x3FFFD;
}

}  // namespace

int codepoint_width(char32_t codepoint) {
  // Printable ASCII, most of any text, needs no lookup.
  if (codepoint >= 0x20 && codepoint < 0x7F) return 1;
  // C0 and C1 controls and DEL.
  if (codepoint < 0xA0) return 0;
  // utf8proc answers for any value: those beyond Unicode count as unassigned.
  const utf8proc_property_t* property =
      utf8proc_get_property(static_cast<utf8proc_int32_t>(codepoint));
  // A spacing mark, such as a Devanagari vowel sign, takes a column of its own in a terminal (as
  // wcwidth(3) counts it); utf8proc gives every mark but the East Asian wide ones no width.
  if (property->category == UTF8PROC_CATEGORY_MC && property->charwidth == 0) return 1;
  if (property->category == UTF8PROC_CATEGORY_CN && in_ideographic_planes(codepoint)) return 2;
  return static_cast<int>(property->charwidth);
}

char32_t decode_utf8(std::string_view text, std::size_t pos, std::size_t& length) {
  length = utf8_sequence_length(text, pos);
  if (length == 0) {
    length = 1;
    return 0xFFFD;
  }
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (length == 1) return lead;
  char32_t codepoint = lead & (0xFF >> (length + 1));
  for (std::size_t i = 1; i < length; ++i) {
    codepoint = (codepoint << 6) | (static_cast<unsigned char>(text[pos + i]) & 0x3F);
  }
  return codepoint;
}

std::size_t display_width(std::string_view text) {
  std::size_t columns = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t length = 0;
    columns += codepoint_width(decode_utf8(text, pos, length));
    pos += length;
  }
  return columns;
}

std::size_t prefix_fitting(std::string_view text, std::size_t columns) {
  std::size_t used = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t length = 0;
    const auto width = static_cast<std::size_t>(codepoint_width(decode_utf8(text, pos, length)));
    if (used + width > columns) break;
    used += width;
    pos += length;
  }
  return pos;
}

}  // namespace nib::util
