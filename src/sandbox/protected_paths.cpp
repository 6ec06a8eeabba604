#include "sandbox/protected_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "util/path_within.hpp"
#include "workspace/path_kind.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;

}  // namespace

ProtectedPaths::ProtectedPaths(std::shared_ptr<const workspace::ProtectedTree> tree)
    : tree_(std::move(tree)) {}

ProtectedPaths::~ProtectedPaths() {
  for (auto placeholder = placeholders_.rbegin(); placeholder != placeholders_.rend();
       ++placeholder) {
    ::rmdir(placeholder->c_str());  // fails, as it should, when something is in it now
  }
}

bool ProtectedPaths::make_placeholder(const fs::path& path) {
  const fs::path& tree = tree_->tree();
  if (!util::is_strictly_within(tree, path.lexically_normal())) return false;
  // The missing directories from the tree down to `path`, made top first.
  std::vector<fs::path> missing;
  for (fs::path step = path; step != tree && !workspace::exists_without_following(step);
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
  for (fs::path parent = path.parent_path(); util::is_strictly_within(tree_->tree(), parent);
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
  for (const workspace::ProtectedEntry& entry : tree_->entries()) {
    if (!util::is_strictly_within(tree_->tree(), entry.path)) continue;
    if (workspace::exists_without_following(entry.path) ||
        (entry.may_make && make_placeholder(entry.path))) {
      pin_parents(entry.path);
      mounts_.read_only.push_back(entry.path);
    }
  }
  return mounts_;
}

}  // namespace nib::sandbox
