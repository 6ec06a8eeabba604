#include "sandbox/protected_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <system_error>

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;

// Protected wherever the tree has them, and made as placeholders where it does not.
constexpr const char* kAlwaysProtected[] = {".nib", ".claude", ".mcp.json"};

bool exists_without_following(const fs::path& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0;
}

}  // namespace

ProtectedPaths::ProtectedPaths(fs::path tree) : tree_(std::move(tree)) {}

ProtectedPaths::~ProtectedPaths() {
  for (auto placeholder = placeholders_.rbegin(); placeholder != placeholders_.rend();
       ++placeholder) {
    ::rmdir(placeholder->c_str());  // fails, as it should, when something is in it now
  }
}

std::vector<fs::path> ProtectedPaths::prepare() {
  std::lock_guard lock(mutex_);
  if (prepared_) return paths_;
  prepared_ = true;
  std::vector<fs::path> wanted;
  for (const char* name : kAlwaysProtected) wanted.push_back(tree_ / name);
  const fs::path git = tree_ / ".git";
  std::error_code error;
  if (fs::is_directory(fs::symlink_status(git, error))) {
    wanted.push_back(git / "hooks");
    wanted.push_back(git / "config");
  } else if (exists_without_following(git)) {
    wanted.push_back(git);  // a worktree's or submodule's pointer to its git directory
  }
  for (const fs::path& path : wanted) {
    if (exists_without_following(path)) {
      paths_.push_back(path);
    } else if (path.filename() != "config" && ::mkdir(path.c_str(), 0755) == 0) {
      // .git/config missing means .git is no repository git would use; nothing to guard.
      placeholders_.push_back(path);
      paths_.push_back(path);
    }
  }
  return paths_;
}

}  // namespace nib::sandbox
