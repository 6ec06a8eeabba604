#pragma once
// What git itself says about a repository: for the protected paths (protected_tree.hpp), the
// hooks directory it runs hooks from (core.hooksPath when set, resolved as git resolves it:
// relative to the working tree's top, `~` expanded; else $GIT_DIR/hooks), the config file it
// reads, and which of some paths its ignore rules exclude; for file tools, the line end a new
// file gets. Git is the oracle, rather than a
// parser of ours, so that every config level (system, global, include.path, a worktree's own
// config) counts exactly as it will for the git run later outside the sandbox.
//
// Each query is one git process, run unconfined (it only reads) with a timeout, in the
// repository's directory; GIT_DIR and GIT_WORK_TREE are left out of its environment, so the
// answer is about the directory, not about whatever repository nib's own environment names.
// A query that cannot be answered (no git, not a repository, git failed) returns nothing.
// Thread-safe: independent calls may run on several threads.

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace nib::workspace {

struct GitRepositoryPaths {
  std::filesystem::path hooks;   // absolute, may not exist
  std::filesystem::path config;  // absolute; for a linked worktree, the common one
};

// The paths git uses for the repository whose working tree holds `directory`.
std::optional<GitRepositoryPaths> git_repository_paths(const std::filesystem::path& directory);

// Those of `paths` (inside `tree`, absolute) that the ignore rules of the repository holding
// `tree` exclude; empty when there is no such repository or git cannot say.
std::vector<std::filesystem::path> git_ignored(const std::filesystem::path& tree,
                                               const std::vector<std::filesystem::path>& paths);

// The line end git would give a new text file at `file` (absolute; neither it nor its
// directory need exist) when checking it out: "\r\n" or "\n", from its `eol` and `text`
// attributes (.gitattributes at every level), then core.autocrlf and core.eol. "\n" outside a
// repository or when git cannot say.
std::string_view git_new_file_line_end(const std::filesystem::path& file);

}  // namespace nib::workspace
