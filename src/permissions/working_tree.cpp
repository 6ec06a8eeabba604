#include "permissions/working_tree.hpp"

#include <array>
#include <system_error>

namespace nib::permissions {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::string_view, 7> kProtected{".git/hooks",
                                                     ".git/config",
                                                     ".nib",
                                                     ".claude/settings.json",
                                                     ".claude/settings.local.json",
                                                     ".claude/commands",
                                                     ".mcp.json"};

// `path` with symbolic links resolved in its longest existing prefix, the rest appended.
fs::path resolved(const fs::path& path) {
  fs::path existing = path;
  fs::path rest;
  std::error_code error;
  while (!existing.empty() && !fs::exists(fs::symlink_status(existing, error))) {
    rest = rest.empty() ? existing.filename() : existing.filename() / rest;
    if (existing == existing.parent_path()) break;
    existing = existing.parent_path();
  }
  fs::path real = fs::canonical(existing, error);
  if (error) real = existing;
  return (rest.empty() ? real : real / rest).lexically_normal();
}

bool below(const fs::path& base, const fs::path& path) {
  const fs::path relative = path.lexically_relative(base);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

std::span<const std::string_view> protected_tree_paths() {
  return kProtected;
}

PathPlace place_of(const fs::path& tree, const fs::path& path) {
  const fs::path root = resolved(tree);
  const fs::path target = resolved(path.is_absolute() ? path : tree / path);
  if (!below(root, target)) return PathPlace::kOutside;
  for (const std::string_view entry : kProtected) {
    const fs::path guarded = root / entry;
    if (target == guarded || below(guarded, target)) return PathPlace::kProtected;
  }
  return PathPlace::kInside;
}

}  // namespace nib::permissions
