#include "tools/grep_pattern.hpp"

#include <array>
#include <cstring>
#include <string>

namespace nib::tools {
namespace {

// How common each byte value is, as a rank from 0 (never seen) to 255 (the space): counted once
// over 19,000 text files (C/C++ headers, Python and Perl libraries, documentation) and frozen
// here. Only the order is kept (frequencies are estimated from it), and it needs to be roughly
// right, not exact: the estimate agrees with real counts within a factor of two for the common
// bytes (space, 'e', digits, '-').
constexpr std::array<std::uint8_t, 256> kByteRank = {
    0,   1,   2,   3,   4,   5,   6,   50,  7,   196, 245, 8,   72,  79,  9,   10,  11,  12,  13,
    14,  15,  16,  17,  18,  47,  19,  20,  21,  22,  23,  24,  25,  255, 163, 207, 201, 170, 160,
    171, 203, 229, 230, 231, 166, 233, 215, 220, 239, 221, 213, 209, 193, 190, 192, 188, 183, 185,
    191, 210, 204, 208, 198, 211, 159, 168, 226, 194, 222, 205, 234, 199, 200, 186, 227, 167, 184,
    225, 202, 223, 218, 216, 169, 219, 235, 232, 195, 187, 174, 189, 180, 164, 182, 176, 181, 157,
    246, 173, 248, 224, 243, 242, 254, 238, 228, 237, 251, 177, 212, 244, 236, 250, 249, 241, 172,
    247, 252, 253, 240, 214, 197, 206, 217, 175, 179, 165, 178, 158, 26,  152, 138, 135, 125, 106,
    97,  101, 137, 134, 110, 81,  76,  100, 95,  82,  143, 119, 129, 103, 107, 147, 118, 144, 89,
    115, 142, 111, 88,  141, 132, 83,  153, 161, 128, 91,  113, 133, 98,  104, 124, 105, 150, 85,
    139, 84,  109, 99,  80,  121, 127, 116, 114, 123, 117, 131, 96,  149, 136, 108, 112, 130, 120,
    126, 87,  27,  28,  162, 154, 77,  102, 59,  56,  61,  65,  62,  53,  64,  51,  146, 122, 155,
    145, 58,  57,  54,  60,  94,  140, 93,  90,  55,  52,  44,  29,  30,  31,  148, 92,  156, 86,
    69,  75,  74,  73,  71,  70,  68,  67,  66,  63,  32,  78,  151, 33,  34,  48,  45,  35,  46,
    36,  37,  38,  43,  39,  40,  49,  41,  42,
};

// Zipf's law over the ranks: the k-th commonest byte has frequency 1 / (k * H), where H, the
// 256th harmonic number, makes the frequencies sum to 1.
constexpr std::array<double, 256> zipf_frequencies() {
  double harmonic = 0;
  for (int k = 1; k <= 256; ++k) harmonic += 1.0 / k;
  std::array<double, 256> frequencies{};
  for (std::size_t byte = 0; byte < 256; ++byte) {
    frequencies[byte] = 1.0 / ((256 - kByteRank[byte]) * harmonic);
  }
  return frequencies;
}

constexpr std::array<double, 256> kByteFrequency = zipf_frequencies();

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// A number of at most four digits at pattern[i], advancing i past it; nullopt when there is none
// (RE2 allows no more than 1000 repetitions anyway).
std::optional<std::size_t> read_count(std::string_view pattern, std::size_t& i) {
  const std::size_t digits_start = i;
  while (i < pattern.size() && is_digit(pattern[i])) ++i;
  if (i == digits_start || i - digits_start > 4) return std::nullopt;
  return std::stoul(std::string(pattern.substr(digits_start, i - digits_start)));
}

}  // namespace

std::uint8_t byte_rank(unsigned char byte) {
  return kByteRank[byte];
}

double byte_frequency(unsigned char byte) {
  return kByteFrequency[byte];
}

bool is_ascii_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

char ascii_upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

bool folds_beyond_ascii(char c) {
  return c != '\0' && std::strchr("kKsS", c) != nullptr;
}

bool is_quantifier_start(char c) {
  return c == '*' || c == '+' || c == '?' || c == '{';
}

bool ends_atom_reading(char c) {
  return c == '|' || c == ')' || c == ']' || c == '}' || is_quantifier_start(c);
}

std::size_t skip_class(std::string_view pattern, std::size_t start) {
  std::size_t i = start + 1;
  if (i < pattern.size() && pattern[i] == '^') ++i;
  if (i < pattern.size() && pattern[i] == ']') ++i;  // a ']' first is a member
  while (i < pattern.size()) {
    if (pattern[i] == ']') return i + 1;
    if (pattern[i] == '\\') {
      i += 2;
    } else if (pattern[i] == '[' && i + 1 < pattern.size() && pattern[i + 1] == ':') {
      const std::size_t close = pattern.find(":]", i + 2);
      if (close == std::string_view::npos) return std::string_view::npos;
      i = close + 2;
    } else {
      ++i;
    }
  }
  return std::string_view::npos;
}

std::size_t skip_escape_or_class(std::string_view pattern, std::size_t i) {
  if (pattern[i] == '\\') return i + 2;
  if (pattern[i] == '[') return skip_class(pattern, i);
  return i + 1;
}

std::size_t skip_group(std::string_view pattern, std::size_t start) {
  std::size_t depth = 0;
  for (std::size_t i = start; i < pattern.size();) {
    if (pattern[i] == '(') ++depth;
    if (pattern[i] == ')' && --depth == 0) return i + 1;
    i = skip_escape_or_class(pattern, i);
  }
  return std::string_view::npos;
}

std::optional<Quantifier> read_quantifier(std::string_view pattern, std::size_t start) {
  Quantifier quantifier;
  const char c = pattern[start];
  if (c == '{') {
    std::size_t i = start + 1;
    const auto minimum = read_count(pattern, i);
    if (!minimum) return std::nullopt;
    quantifier.minimum = *minimum;
    quantifier.maximum = *minimum;
    if (i < pattern.size() && pattern[i] == ',') {
      ++i;
      quantifier.maximum = SIZE_MAX;
      if (i < pattern.size() && is_digit(pattern[i])) {
        const auto maximum = read_count(pattern, i);
        if (!maximum) return std::nullopt;
        quantifier.maximum = *maximum;
      }
    }
    if (i >= pattern.size() || pattern[i] != '}') return std::nullopt;
    quantifier.end = i + 1;
  } else {
    quantifier.minimum = c == '+' ? 1 : 0;
    quantifier.maximum = c == '?' ? 1 : SIZE_MAX;
    quantifier.end = start + 1;
  }
  if (quantifier.end < pattern.size() && pattern[quantifier.end] == '?') ++quantifier.end;
  return quantifier;
}

}  // namespace nib::tools
