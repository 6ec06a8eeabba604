#include "sandbox/protected_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "sandbox/git_paths.hpp"
#include "sandbox/nested_repositories.hpp"
#include "sandbox/path_kind.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;

// Protected wherever the tree has them, and made as placeholders where it does not.
constexpr const char* kAlwaysProtected[] = {".nib", ".claude", ".mcp.json"};

// True when `path` lies strictly below `tree` (both absolute), by their components.
bool strictly_inside(const fs::path& tree, const fs::path& path) {
  const fs::path normal = path.lexically_normal();
  auto [tree_end, path_at] = std::mismatch(tree.begin(), tree.end(), normal.begin(), normal.end());
  return tree_end == tree.end() && path_at != normal.end() && !path_at->empty();
}

}  // namespace

ProtectedPaths::ProtectedPaths(fs::path tree) : tree_(std::move(tree)) {}

ProtectedPaths::~ProtectedPaths() {
  for (auto placeholder = placeholders_.rbegin(); placeholder != placeholders_.rend();
       ++placeholder) {
    ::rmdir(placeholder->c_str());  // fails, as it should, when something is in it now
  }
}

void ProtectedPaths::want(const fs::path& path, bool may_make) {
  const auto same = [&](const Wanted& wanted) { return wanted.path == path; };
  if (std::find_if(wanted_.begin(), wanted_.end(), same) == wanted_.end()) {
    wanted_.push_back({path, may_make});
  }
}

void ProtectedPaths::want_git_entry(const fs::path& git) {
  if (kind_without_following(git) == fs::file_type::directory) {
    want_git_directory(git);
  } else if (exists_without_following(git)) {
    want(git, false);  // a worktree's or submodule's pointer to its git directory
  }
}

void ProtectedPaths::want_git_directory(const fs::path& git_directory) {
  want(git_directory / "hooks", true);
  // No config means no repository git would use; nothing to guard.
  want(git_directory / "config", false);
}

void ProtectedPaths::want_what_git_uses(const fs::path& repository) {
  const auto paths = git_repository_paths(repository);
  if (!paths) return;
  // core.hooksPath may name a directory that does not exist yet (.husky before `npm install`).
  if (strictly_inside(tree_, paths->hooks)) want(paths->hooks.lexically_normal(), true);
  if (strictly_inside(tree_, paths->config)) want(paths->config.lexically_normal(), false);
}

void ProtectedPaths::want_nested_repositories() {
  const NestedRepositories nested = find_nested_repositories(tree_);
  for (const fs::path& git_directory : nested.module_git_directories) {
    want_git_directory(git_directory);
  }
  std::vector<fs::path> repositories;
  for (const fs::path& git : nested.git_entries) repositories.push_back(git.parent_path());
  // A repository in an ignored directory is a build product or a cache (CMake's fetched
  // dependencies in build/_deps/*-src): commands must stay able to delete it (`rm -rf build`),
  // which a read-only mount inside it would prevent.
  const std::vector<fs::path> ignored = git_ignored(tree_, repositories);
  for (const fs::path& repository : repositories) {
    if (std::find(ignored.begin(), ignored.end(), repository) != ignored.end()) continue;
    want_git_entry(repository / ".git");
    want_what_git_uses(repository);
  }
}

bool ProtectedPaths::make_placeholder(const fs::path& path) {
  if (!strictly_inside(tree_, path)) return false;
  // The missing directories from the tree down to `path`, made top first.
  std::vector<fs::path> missing;
  for (fs::path step = path; step != tree_ && !exists_without_following(step);
       step = step.parent_path()) {
    missing.push_back(step);
  }
  for (auto step = missing.rbegin(); step != missing.rend(); ++step) {
    if (::mkdir(step->c_str(), 0755) != 0) return false;
    placeholders_.push_back(*step);
  }
  return true;
}

void ProtectedPaths::pin_parents(const fs::path& path) {
  std::vector<fs::path> parents;
  for (fs::path parent = path.parent_path(); strictly_inside(tree_, parent);
       parent = parent.parent_path()) {
    parents.push_back(parent);
  }
  for (auto parent = parents.rbegin(); parent != parents.rend(); ++parent) {
    if (std::find(mounts_.pinned.begin(), mounts_.pinned.end(), *parent) == mounts_.pinned.end()) {
      mounts_.pinned.push_back(*parent);
    }
  }
}

ProtectedMounts ProtectedPaths::prepare() {
  std::lock_guard lock(mutex_);
  if (prepared_) return mounts_;
  prepared_ = true;
  for (const char* name : kAlwaysProtected) want(tree_ / name, true);
  want_git_entry(tree_ / ".git");
  want_what_git_uses(tree_);
  want_nested_repositories();
  for (const Wanted& wanted : wanted_) {
    if (exists_without_following(wanted.path) ||
        (wanted.may_make && make_placeholder(wanted.path))) {
      pin_parents(wanted.path);
      mounts_.read_only.push_back(wanted.path);
    }
  }
  wanted_.clear();
  return mounts_;
}

}  // namespace nib::sandbox
