#include "util/display_width.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "util/utf8.hpp"

namespace nib::util {
namespace {

using Range = std::pair<char32_t, char32_t>;

// Combining marks and zero-width characters that occur in practice (not every Unicode Mn).
constexpr std::array<Range, 16> kZeroWidth{{
    {0x0300, 0x036F},
    {0x0483, 0x0489},
    {0x0591, 0x05BD},
    {0x0610, 0x061A},
    {0x064B, 0x065F},
    {0x0E31, 0x0E31},
    {0x0E34, 0x0E3A},
    {0x1AB0, 0x1AFF},
    {0x1DC0, 0x1DFF},
    {0x200B, 0x200F},
    {0x2028, 0x202E},
    {0x2060, 0x2064},
    {0x20D0, 0x20FF},
    {0xFE00, 0xFE0F},
    {0xFE20, 0xFE2F},
    {0xFEFF, 0xFEFF},
}};

// East Asian Wide and Fullwidth blocks, and the emoji blocks terminals draw two columns wide.
constexpr std::array<Range, 17> kWide{{
    {0x1100, 0x115F},
    {0x231A, 0x231B},
    {0x2329, 0x232A},
    {0x23E9, 0x23EC},
    {0x25FD, 0x25FE},
    {0x2614, 0x2615},
    {0x2E80, 0x303E},
    {0x3041, 0x33FF},
    {0x3400, 0x4DBF},
    {0x4E00, 0x9FFF},
    {0xA000, 0xA4CF},
    {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF},
    {0xFE30, 0xFE4F},
    {0xFF00, 0xFF60},
    {0xFFE0, 0xFFE6},
    {0x1F300, 0x1F64F},
}};
constexpr std::array<Range, 3> kWideSupplementary{{
    {0x1F680, 0x1F6FF},
    {0x1F900, 0x1F9FF},
    {0x20000, 0x3FFFD},
}};

template <std::size_t N>
bool in_ranges(char32_t codepoint, const std::array<Range, N>& ranges) {
  return std::any_of(ranges.begin(), ranges.end(), [codepoint](const Range& range) {
    return codepoint >= range.first && codepoint <= range.second;
  });
}

}  // namespace

int codepoint_width(char32_t codepoint) {
  if (codepoint < 0x20 || (codepoint >= 0x7F && codepoint < 0xA0)) return 0;
  if (codepoint < 0x300) return 1;
  if (in_ranges(codepoint, kZeroWidth)) return 0;
  if (in_ranges(codepoint, kWide) || in_ranges(codepoint, kWideSupplementary)) return 2;
  return 1;
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
