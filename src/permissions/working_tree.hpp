#pragma once
// Where a path an edit or write names lies: inside the working tree, on one of the tree's
// protected configuration files, or outside. Symbolic links in the existing part of the path
// are followed, so `link/x` with `link -> /etc` is outside. Reads the file system (realpath of
// the longest existing prefix); otherwise pure.

#include <filesystem>
#include <span>
#include <string_view>

namespace nib::permissions {

// Paths inside the working tree that a command or an edit must not change without the user:
// code that runs later outside the sandbox (git hooks, git's configuration) and the files that
// grant rights (nib's and Claude Code's settings, the MCP servers a project starts). A path is
// protected when it is one of these or lies below one.
std::span<const std::string_view> protected_tree_paths();

enum class PathPlace { kInside, kProtected, kOutside };

// `path` (absolute, or relative to `tree`) against the working tree `tree` (absolute).
PathPlace place_of(const std::filesystem::path& tree, const std::filesystem::path& path);

}  // namespace nib::permissions
