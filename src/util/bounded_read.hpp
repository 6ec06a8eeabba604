#pragma once
// Reading a file that must stay small (a definition, a plugin's JSON) without paying for its
// limit: the bytes are read as they come, up to one past `limit`, so a caller tells a file that
// is too big from one that fits without a buffer of the limit's size. Thread-safe.

#include <cstddef>
#include <filesystem>
#include <string>

#include "util/result.hpp"

namespace nib::util {

// At most `limit` + 1 bytes of `file`; a failure says why it cannot be read ("cannot be read:
// No such file or directory").
Result<std::string> read_at_most(const std::filesystem::path& file, std::size_t limit);

}  // namespace nib::util
