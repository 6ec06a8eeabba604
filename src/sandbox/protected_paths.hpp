#pragma once
// The paths inside the working tree that a sandboxed command may read but never change or
// create, because something outside the sandbox later trusts them: git runs .git/hooks and
// obeys .git/config (core.hooksPath, core.fsmonitor, aliases, filters); a `.git` *file* (a
// worktree or submodule) names the git directory to use; `.nib/` and `.claude/` hold settings
// that grant permissions and hooks, and the scripts those hooks run; `.mcp.json` starts
// servers. All of `.claude/` is protected, not only its settings files, since its hooks,
// agents and commands run later with the user's rights.
//
// The same holds for every repository git would use in the tree, not only the tree's own:
// - the hooks directory and config file git itself names (git_paths.hpp), where they lie in
//   the tree: core.hooksPath (`.husky/`, from any config level), and the git directory a
//   `.git` file points to (`gitdir: .bare`);
// - nested repositories (nested_repositories.hpp, a bounded scan): submodules' git
//   directories in .git/modules and their `.git` files, and vendored checkouts' `.git/hooks`,
//   `.git/config` and core.hooksPath — except those in directories git ignores, which are
//   build products commands must be able to delete (a read-only mount inside a directory makes
//   `rm -rf` of it fail).
// Found once, at the first sandboxed command: a repository cloned into the tree later is not
// protected (one a sandboxed command made is the command's own anyway).
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
#include <mutex>
#include <vector>

namespace nib::sandbox {

struct ProtectedMounts {
  std::vector<std::filesystem::path> pinned;     // bound writable over themselves, parents first
  std::vector<std::filesystem::path> read_only;  // bound read-only over themselves, after them
};

class ProtectedPaths {
 public:
  explicit ProtectedPaths(std::filesystem::path tree);
  ~ProtectedPaths();  // removes the placeholders this object made, if still empty
  ProtectedPaths(const ProtectedPaths&) = delete;
  ProtectedPaths& operator=(const ProtectedPaths&) = delete;

  // The paths to bind inside the sandbox, every one of them existing (placeholders are made
  // for those that were missing and can be made). Cached after the first call.
  ProtectedMounts prepare();

 private:
  struct Wanted {
    std::filesystem::path path;
    bool may_make;  // a placeholder may be made when it is missing
  };
  // These collect wanted_ (each path once), under mutex_.
  void want(const std::filesystem::path& path, bool may_make);
  void want_git_entry(const std::filesystem::path& git);  // a `.git` directory or file
  void want_git_directory(const std::filesystem::path& git_directory);
  void want_what_git_uses(const std::filesystem::path& repository);
  void want_nested_repositories();
  // Pins the directories between the tree and `path`, each once, parents first.
  void pin_parents(const std::filesystem::path& path);
  // Makes the empty directory `path` (strictly inside the tree) and its missing parents;
  // false when it cannot.
  bool make_placeholder(const std::filesystem::path& path);

  const std::filesystem::path tree_;
  std::mutex mutex_;
  bool prepared_ = false;
  std::vector<Wanted> wanted_;
  ProtectedMounts mounts_;
  std::vector<std::filesystem::path> placeholders_;  // made by this object, deepest last
};

}  // namespace nib::sandbox
