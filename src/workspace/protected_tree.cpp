#include "workspace/protected_tree.hpp"

#include <algorithm>
#include <system_error>

#include "util/path_within.hpp"
#include "workspace/git_paths.hpp"
#include "workspace/nested_repositories.hpp"
#include "workspace/path_kind.hpp"

namespace nib::workspace {
namespace {

namespace fs = std::filesystem;

bool within_a_git_directory(const fs::path& relative) {
  return std::any_of(relative.begin(), relative.end(),
                     [](const fs::path& component) { return component == ".git"; });
}

fs::path without_trailing_slash(const fs::path& path) {
  std::string text = path.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

fs::path resolved(const fs::path& path) {
  std::error_code error;
  const fs::path real = fs::weakly_canonical(path, error);
  return without_trailing_slash(error ? path : real);
}

}  // namespace

ProtectedTree::ProtectedTree(fs::path tree, std::vector<fs::path> hook_scripts)
    : tree_(resolved(fs::absolute(tree))), hook_scripts_(std::move(hook_scripts)) {}

const std::vector<ProtectedEntry>& ProtectedTree::entries() const {
  std::call_once(found_, [this] { find(); });
  return entries_;
}

std::optional<std::string> ProtectedTree::protection(const fs::path& path) const {
  const fs::path written = without_trailing_slash(path);
  const fs::path real = resolved(path);
  for (const ProtectedEntry& entry : entries()) {
    if (util::is_within(entry.path, written) || util::is_within(entry.path, real)) return entry.why;
  }
  for (const fs::path& spelling : {written, real}) {
    if (util::is_strictly_within(tree_, spelling) &&
        within_a_git_directory(spelling.lexically_relative(tree_))) {
      return "git takes what is in a .git directory for a repository's own, and obeys its "
             "config and hooks at the user's next git command";
    }
  }
  return std::nullopt;
}

void ProtectedTree::add(const fs::path& path, bool may_make, std::string why) const {
  const fs::path normal = without_trailing_slash(path);
  const auto same = [&](const ProtectedEntry& entry) { return entry.path == normal; };
  if (std::find_if(entries_.begin(), entries_.end(), same) == entries_.end()) {
    entries_.push_back({normal, may_make, std::move(why)});
  }
}

void ProtectedTree::add_git_entry(const fs::path& git, const std::string& whose) const {
  if (kind_without_following(git) == fs::file_type::directory) {
    add_git_directory(git, whose);
  } else if (exists_without_following(git)) {
    add(git, false, "it names the git directory " + whose + " uses");
  }
}

void ProtectedTree::add_git_directory(const fs::path& git_directory,
                                      const std::string& whose) const {
  add(git_directory / "hooks", true, "git runs the hooks in it for " + whose);
  // No config means no repository git would use; nothing to guard.
  add(git_directory / "config", false,
      "git obeys it for " + whose + " (aliases, filters, core.hooksPath and the like)");
}

void ProtectedTree::add_what_git_uses(const fs::path& repository, const std::string& whose) const {
  const auto paths = git_repository_paths(repository);
  if (!paths) return;
  // core.hooksPath may name a directory that does not exist yet (.husky before `npm install`).
  if (util::is_strictly_within(tree_, paths->hooks.lexically_normal())) {
    add(paths->hooks, true, "git runs the hooks in it for " + whose + " (core.hooksPath)");
  }
  if (util::is_strictly_within(tree_, paths->config.lexically_normal())) {
    add(paths->config, false, "git obeys it for " + whose);
  }
}

void ProtectedTree::add_nested_repositories() const {
  const NestedRepositories nested = find_nested_repositories(tree_);
  for (const fs::path& git_directory : nested.module_git_directories) {
    add_git_directory(git_directory, "a submodule");
  }
  std::vector<fs::path> repositories;
  for (const fs::path& git : nested.git_entries) repositories.push_back(git.parent_path());
  // A repository in an ignored directory is a build product or a cache (CMake's fetched
  // dependencies in build/_deps/*-src): commands must stay able to delete it (`rm -rf build`),
  // which a read-only mount inside it would prevent.
  const std::vector<fs::path> ignored = git_ignored(tree_, repositories);
  for (const fs::path& repository : repositories) {
    if (std::find(ignored.begin(), ignored.end(), repository) != ignored.end()) continue;
    const std::string whose =
        "the nested repository " + repository.lexically_relative(tree_).string();
    add_git_entry(repository / ".git", whose);
    add_what_git_uses(repository, whose);
  }
}

void ProtectedTree::find() const {
  add(tree_ / ".nib", true, "it holds nib's settings (rules, hooks, the sandbox) and agents");
  add(tree_ / ".claude", true,
      "it holds Claude Code's settings, hooks, agents, commands and skills, which nib obeys");
  add(tree_ / ".mcp.json", true, "it names the MCP servers the project starts");
  add_git_entry(tree_ / ".git", "the working tree");
  add_what_git_uses(tree_, "the working tree");
  add_nested_repositories();
  for (const fs::path& script : hook_scripts_) {
    const fs::path real = resolved(script);
    if (util::is_strictly_within(tree_, real)) {
      add(real, false, "a hook the settings name runs it on the host, outside the sandbox");
    }
  }
}

}  // namespace nib::workspace
