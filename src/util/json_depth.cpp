#include "util/json_depth.hpp"

namespace nib::util {
namespace {

// The deepest nesting in `text`, or a number above `stop_above` as soon as the nesting passes
// it.
std::size_t deepest_nesting(std::string_view text, std::size_t stop_above) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (in_string) {
      if (c == '\\') {
        ++pos;  // the escaped character, whatever it is, cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > deepest) {
          deepest = depth;
          if (deepest > stop_above) return deepest;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return deepest;
}

}  // namespace

std::size_t json_nesting_depth(std::string_view text) {
  return deepest_nesting(text, static_cast<std::size_t>(-1));
}

bool json_nests_deeper_than(std::string_view text, std::size_t max_depth) {
  return deepest_nesting(text, max_depth) > max_depth;
}

nlohmann::json parse_untrusted_json(std::string_view text) {
  if (json_nests_deeper_than(text, kMaxJsonDepth)) {
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace nib::util
