#pragma once
// Whether one path lies within another, by their components: "/a/bc" is not within "/a/b", and
// a trailing slash changes nothing. Both paths are taken as they are given (absolute and
// normal, or both relative the same way): nothing is resolved here. Pure; thread-safe.

#include <filesystem>

namespace nib::util {

// True when `path` is `base` or lies below it.
bool is_within(const std::filesystem::path& base, const std::filesystem::path& path);

// True when `path` lies below `base`, not being it.
bool is_strictly_within(const std::filesystem::path& base, const std::filesystem::path& path);

}  // namespace nib::util
