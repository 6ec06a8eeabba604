#pragma once
// A count with its noun, in the right number ("1 file", "2 files", "3 directories"). Pure;
// thread-safe.

#include <cstddef>
#include <string>
#include <string_view>

namespace nib::util {

// "1 <noun>", else "<count> <plural_noun>"; an empty plural_noun means noun + "s".
std::string plural(std::size_t count, std::string_view noun, std::string_view plural_noun = {});

}  // namespace nib::util
