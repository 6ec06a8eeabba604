#pragma once
// Which directories of a working tree changed, told by the kernel (inotify) rather than found by
// looking at every file: a checkpoint of a large tree then costs what changed, not the tree's
// size. Every directory but the skipped ones is watched; a change to an entry (its content,
// its attributes, its creation, removal or rename) marks the directory holding it. A new
// directory is watched as it appears, and it and everything under it count as changed.
//
// When the watch cannot be trusted — the kernel's queue overflowed, a directory was moved (its
// watches would name the wrong paths), a watch could not be added — it says so, and the caller
// looks at the whole tree; the next take starts afresh.
//
// Not thread-safe: one owner.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace nib::session {

class TreeWatch {
 public:
  // Whether the directory at `relative` ('/'-separated, not empty) is left unwatched (the
  // repository's own .git, ignored directories).
  using SkipDirectory = std::function<bool(const std::string& relative)>;

  // Watches `tree`; nullptr when inotify is not available.
  static std::unique_ptr<TreeWatch> start(const std::filesystem::path& tree, SkipDirectory skip);
  ~TreeWatch();
  TreeWatch(const TreeWatch&) = delete;
  TreeWatch& operator=(const TreeWatch&) = delete;

  // The directories that changed since the last call ("" is the tree's top), or nullopt when
  // the watch lost track and the whole tree must be looked at.
  std::optional<std::set<std::string>> take_changed();

 private:
  struct State;
  explicit TreeWatch(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace nib::session
