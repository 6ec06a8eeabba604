#pragma once
// The git repositories inside a working tree besides its own, for the protected paths
// (protected_tree.hpp): neither a command nor an edit may plant hooks or config in them,
// since git run in them later, outside the sandbox (by the user, a shell prompt showing the
// branch, an editor, CMake updating a fetched dependency), would obey them.
//
// Two places hold them, and both are looked at, within one budget of directories read:
// - below the tree, any directory with a `.git` entry: a vendored checkout with its own `.git`
//   directory, or a submodule's checkout whose `.git` file points at its git directory;
// - the tree's module store, `.git/modules/**`, where git keeps each submodule's git directory
//   (hooks, config), even for a submodule not checked out now.
// The scan is breadth first, so the shallow ones (third_party/x, vendor/x) come first; it never
// enters a `.git` directory nor follows a symbolic link. It is bounded rather than complete
// because it runs at a command's start: kMaxScannedDirectories directories read at most, and
// kMaxNestedRepositories repositories kept (each costs a git query and bind mounts). What lies
// beyond either limit is not protected, and `truncated` says so.
// Thread-safe: pure apart from reading the file system.

#include <cstddef>
#include <filesystem>
#include <vector>

namespace nib::workspace {

// Directories read, at most: the top levels of any tree, where vendored checkouts sit, in a
// few milliseconds (one readdir each, warm); the rest of a huge tree is not scanned.
constexpr std::size_t kMaxScannedDirectories = 4096;
// Repositories kept, at most, of each kind: far more than projects vendor, few enough that
// their git queries (a few ms each) stay small at the first command.
constexpr std::size_t kMaxNestedRepositories = 32;

struct NestedRepositories {
  // Each `.git` entry found below the tree (not the tree's own), directory or file, breadth
  // first.
  std::vector<std::filesystem::path> git_entries;
  // Each git directory in the tree's module store (<tree>/.git/modules/..., nested submodules'
  // <gitdir>/modules/... too).
  std::vector<std::filesystem::path> module_git_directories;
  bool truncated = false;  // a limit stopped the scan
};

NestedRepositories find_nested_repositories(const std::filesystem::path& tree);

}  // namespace nib::workspace
