#include "workspace/nested_repositories.hpp"

#include <deque>
#include <system_error>

#include "workspace/path_kind.hpp"

namespace nib::workspace {
namespace {

namespace fs = std::filesystem;

struct Budget {
  std::size_t directories_left = kMaxScannedDirectories;
  bool exhausted = false;

  // Takes one directory read from the budget; false (and exhausted) when none is left.
  bool take() {
    if (directories_left == 0) {
      exhausted = true;
      return false;
    }
    --directories_left;
    return true;
  }
};

bool is_directory_without_following(const fs::path& path) {
  return kind_without_following(path) == fs::file_type::directory;
}

bool is_file_without_following(const fs::path& path) {
  return kind_without_following(path) == fs::file_type::regular;
}

// Queues the subdirectories of `directory` (no symbolic links, none named .git), in the order
// readdir gives them, while the budget could still read them all: the queue never outgrows
// the budget, however wide a directory is.
void queue_subdirectories(const fs::path& directory, Budget& budget,
                          std::deque<fs::path>& pending) {
  std::error_code error;
  for (fs::directory_iterator
           entry(directory, fs::directory_options::skip_permission_denied, error),
       end;
       !error && entry != end; entry.increment(error)) {
    if (entry->symlink_status(error).type() != fs::file_type::directory ||
        entry->path().filename() == ".git") {
      continue;
    }
    if (pending.size() >= budget.directories_left) {
      budget.exhausted = true;
      return;
    }
    pending.push_back(entry->path());
  }
}

// A git directory: what git checks first, HEAD and config, are files in it.
bool is_git_directory(const fs::path& directory) {
  return is_file_without_following(directory / "HEAD") &&
         is_file_without_following(directory / "config");
}

void scan_tree(const fs::path& tree, Budget& budget, NestedRepositories& found) {
  std::deque<fs::path> pending{tree};
  while (!pending.empty() && found.git_entries.size() < kMaxNestedRepositories) {
    const fs::path directory = pending.front();
    pending.pop_front();
    if (!budget.take()) return;
    if (directory != tree) {
      const fs::path git = directory / ".git";
      if (is_directory_without_following(git) || is_file_without_following(git)) {
        found.git_entries.push_back(git);
      }
    }
    queue_subdirectories(directory, budget, pending);
  }
  if (!pending.empty()) found.truncated = true;
}

// Submodule names may hold slashes (.git/modules/libs/json), so a directory of the store that
// is no git directory is a step of a name: its subdirectories are looked at in turn.
void scan_module_store(const fs::path& store, Budget& budget, NestedRepositories& found) {
  std::deque<fs::path> pending{store};
  while (!pending.empty()) {
    const fs::path directory = pending.front();
    pending.pop_front();
    if (found.module_git_directories.size() >= kMaxNestedRepositories || !budget.take()) {
      found.truncated = true;
      return;
    }
    if (directory != store && is_git_directory(directory)) {
      found.module_git_directories.push_back(directory);
      // Its own submodules' git directories; objects, refs and the rest are not looked into.
      if (is_directory_without_following(directory / "modules")) {
        pending.push_back(directory / "modules");
      }
      continue;
    }
    queue_subdirectories(directory, budget, pending);
  }
}

}  // namespace

NestedRepositories find_nested_repositories(const fs::path& tree) {
  NestedRepositories found;
  Budget budget;
  const fs::path store = tree / ".git" / "modules";
  if (is_directory_without_following(tree / ".git") && is_directory_without_following(store)) {
    scan_module_store(store, budget, found);
  }
  scan_tree(tree, budget, found);
  found.truncated = found.truncated || budget.exhausted;
  return found;
}

}  // namespace nib::workspace
