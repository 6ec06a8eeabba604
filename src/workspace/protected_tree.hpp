#pragma once
// What in the working tree nothing may change without the user, because something outside the
// sandbox later trusts it: the one owner of that list, asked by the permission policy before an
// edit or a write (it asks) and by the sandbox before a command (it binds them read-only,
// sandbox/protected_paths.hpp), so the two can never disagree.
//
// - `.nib/` and all of `.claude/`: settings that grant permissions, hooks and the scripts they
//   run, agents, commands and skills; `.mcp.json`, the servers a project starts;
// - for every repository git would use in the tree (git is asked, workspace/git_paths.hpp):
//   its hooks directory (`.git/hooks`, or what core.hooksPath names, `.husky/` say), its config
//   file, and a `.git` *file* (a worktree's or submodule's pointer to its git directory);
// - nested repositories (nested_repositories.hpp, a bounded scan): submodules' git directories
//   in `.git/modules` and their `.git` files, vendored checkouts' hooks and config — except those
//   in directories git ignores, build products a command must stay able to delete;
// - the hook scripts the settings name inside the tree (`$CLAUDE_PROJECT_DIR/hooks/check.sh`),
//   which run on the host at the next hook;
// - and for the file tools only, anything in the tree named `.git` or below one, existing or
//   not: a `.git` directory written by hand (config, HEAD) would be a repository git obeys at
//   the user's next git command. Commands may still make repositories (`git init`): the sandbox
//   can only hold paths that exist.
// Found once, on first need (git queries and the scan cost a few milliseconds, so a run that
// never edits a file nor runs a command never pays them): a repository made in the tree later
// is not protected. Thread-safe.

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace nib::workspace {

struct ProtectedEntry {
  std::filesystem::path path;  // absolute, in the tree with its links resolved; may not exist
  // A placeholder may stand in for it while it is missing (a directory: git ignores an empty
  // one), so that a command cannot create it; never for a config file, whose absence means git
  // uses no repository there.
  bool may_make = false;
  std::string why;  // "git runs the hooks in it"
};

class ProtectedTree {
 public:
  // `tree`: the working tree (made absolute and resolved). `hook_scripts`: the files the
  // settings' hooks run (absolute); those inside the tree are protected.
  explicit ProtectedTree(std::filesystem::path tree,
                         std::vector<std::filesystem::path> hook_scripts = {});

  // The working tree, absolute with its links resolved.
  const std::filesystem::path& tree() const { return tree_; }

  // Every protected path, each once, found on the first call.
  const std::vector<ProtectedEntry>& entries() const;

  // Why `path` (absolute) must not change without the user, when it is a protected path or lies
  // below one, or lies in the tree at or below a `.git`, as written or with its links resolved;
  // nothing otherwise.
  std::optional<std::string> protection(const std::filesystem::path& path) const;

 private:
  void find() const;  // fills entries_
  void add(const std::filesystem::path& path, bool may_make, std::string why) const;
  void add_git_entry(const std::filesystem::path& git, const std::string& whose) const;
  void add_git_directory(const std::filesystem::path& git_directory,
                         const std::string& whose) const;
  void add_what_git_uses(const std::filesystem::path& repository, const std::string& whose) const;
  void add_nested_repositories() const;

  const std::filesystem::path tree_;
  const std::vector<std::filesystem::path> hook_scripts_;
  mutable std::once_flag found_;
  mutable std::vector<ProtectedEntry> entries_;
};

}  // namespace nib::workspace
