#pragma once
// What a path is without following a symbolic link at its end (lstat): the tree's scans
// must see a link as a link, never as the directory it points to. Thread-safe.

#include <filesystem>
#include <system_error>

namespace nib::workspace {

// not_found when nothing is there, none when it cannot be looked at.
inline std::filesystem::file_type kind_without_following(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::symlink_status(path, error).type();
}

inline bool exists_without_following(const std::filesystem::path& path) {
  const auto kind = kind_without_following(path);
  return kind != std::filesystem::file_type::not_found && kind != std::filesystem::file_type::none;
}

}  // namespace nib::workspace
