#pragma once
// The paths inside the working tree that a sandboxed command may read but never change or
// create, because something outside the sandbox later trusts them: git runs .git/hooks and
// obeys .git/config (core.hooksPath, core.fsmonitor, aliases, filters); a `.git` *file* (a
// worktree or submodule) names the git directory to use; `.nib/` and `.claude/` hold settings
// that grant permissions and hooks, and the scripts those hooks run; `.mcp.json` starts
// servers. All of `.claude/` is protected, not only its settings files, since its hooks,
// agents and commands run later with the user's rights.
//
// A path that exists is bound read-only over itself. One that does not exist cannot simply be
// left alone (the command could create it) and bubblewrap cannot bind over nothing without
// creating the mount point in the real tree, so nib creates an empty *directory* at that path
// as the placeholder and binds it read-only: inside the sandbox nothing can be created there.
// A directory, even for `.mcp.json`, because an empty directory is invisible to git (`git add
// -A` cannot commit it) and removing it is safe: rmdir fails on anything a person put there.
// Placeholders are made on the first sandboxed command and kept until this object is destroyed
// (nib's exit, after every command has ended): removing one earlier would unmount it from the
// sandboxes of commands still running in the background. After a crash an empty directory
// stays behind; the next nib uses it as it is. (Another nib in the same tree that exits first
// removes its own placeholders while this one's commands may still rely on them.)
// Thread-safe: prepare() may be called from several threads.

#include <filesystem>
#include <mutex>
#include <vector>

namespace nib::sandbox {

class ProtectedPaths {
 public:
  explicit ProtectedPaths(std::filesystem::path tree);
  ~ProtectedPaths();  // removes the placeholders this object made, if still empty
  ProtectedPaths(const ProtectedPaths&) = delete;
  ProtectedPaths& operator=(const ProtectedPaths&) = delete;

  // The paths to bind read-only inside the sandbox, every one of them existing (placeholders
  // are made for those that were missing and can be made). Cached after the first call.
  std::vector<std::filesystem::path> prepare();

 private:
  const std::filesystem::path tree_;
  std::mutex mutex_;
  bool prepared_ = false;
  std::vector<std::filesystem::path> paths_;
  std::vector<std::filesystem::path> placeholders_;  // made by this object, deepest last
};

}  // namespace nib::sandbox
