#pragma once
// The protected paths of the working tree (workspace/protected_tree.hpp, their one owner) as a
// sandboxed command sees them: readable, never changed or created.
//
// A path that exists is bound read-only over itself, and each directory between the tree and
// it is *pinned*: bound writable over itself, which changes nothing inside it but makes it a
// mount point, and a mount point cannot be renamed or removed. Without that a command could
// move the protected path away with its parent (`mv .git .git.old`, `mv third_party/zlib x`)
// and put a planted one in its place. The cost: renaming or deleting a pinned directory
// fails inside the sandbox ("Device or resource busy"), and a hard link or rename into or out
// of it fails with EXDEV (mv copies instead).
// A path that does not exist cannot simply be left alone (the command could create it) and
// bubblewrap cannot bind over nothing without creating the mount point in the real tree, so
// nib creates an empty *directory* at that path (and at its missing parents) as the
// placeholder and binds it read-only: inside the sandbox nothing can be created there. A directory,
// even for `.mcp.json`, because an empty directory is invisible to git (`git add -A` cannot commit
// it) and removing it is safe: rmdir fails on anything a person put there. Config files get no
// placeholder: without one git uses no repository there. Placeholders are made on the first
// sandboxed command and kept until this object is destroyed (nib's exit, after every command has
// ended): removing one earlier would unmount it from the sandboxes of commands still running in the
// background. After a crash an empty directory stays behind; the next nib uses it as it is.
// (Another nib in the same tree that exits first removes its own placeholders while this one's
// commands may still rely on them.) Thread-safe: prepare() may be called from several threads.

#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

#include "workspace/protected_tree.hpp"

namespace nib::sandbox {

struct ProtectedMounts {
  std::vector<std::filesystem::path> pinned;     // bound writable over themselves, parents first
  std::vector<std::filesystem::path> read_only;  // bound read-only over themselves, after them
};

class ProtectedPaths {
 public:
  explicit ProtectedPaths(std::shared_ptr<const workspace::ProtectedTree> tree);
  ~ProtectedPaths();  // removes the placeholders this object made, if still empty
  ProtectedPaths(const ProtectedPaths&) = delete;
  ProtectedPaths& operator=(const ProtectedPaths&) = delete;

  // The paths to bind inside the sandbox, every one of them existing (placeholders are made
  // for those that were missing and can be made). Cached after the first call.
  ProtectedMounts prepare();

 private:
  // Pins the directories between the tree and `path`, each once, parents first.
  void pin_parents(const std::filesystem::path& path);
  // Makes the empty directory `path` (strictly inside the tree) and its missing parents;
  // false when it cannot.
  bool make_placeholder(const std::filesystem::path& path);

  const std::shared_ptr<const workspace::ProtectedTree> tree_;
  std::mutex mutex_;
  bool prepared_ = false;
  ProtectedMounts mounts_;
  std::vector<std::filesystem::path> placeholders_;  // made by this object, deepest last
};

}  // namespace nib::sandbox
