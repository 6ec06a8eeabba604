#include "util/plural.hpp"

namespace nib::util {

std::string plural(std::size_t count, std::string_view noun, std::string_view plural_noun) {
  std::string text = std::to_string(count) + " ";
  if (count == 1) return text.append(noun);
  if (plural_noun.empty()) return text.append(noun).append("s");
  return text.append(plural_noun);
}

}  // namespace nib::util
