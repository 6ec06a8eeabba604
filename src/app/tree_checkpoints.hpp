#pragma once
// The checkpoints of a front end's working tree (session/checkpoint_store.hpp), one per prompt
// and one per finished run, recorded in the session by RunSession. The store is opened, kept
// under its size cap and given the process's first checkpoint — a whole look at the tree, up to
// seconds on a very large one — on a thread of its own as nib starts, while the user types;
// every later checkpoint costs what changed. Thread-safe: calls wait for the opening and for
// each other.

#include <cstdint>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "session/checkpoint_store.hpp"
#include "util/result.hpp"
#include "util/user_places.hpp"

namespace nib::app {

struct Settings;

// The most room the checkpoints of one working directory may take: the settings'
// "checkpoints.maxStoreMB", else session::kDefaultCheckpointStoreBytes.
std::uint64_t checkpoint_store_cap(const Settings& settings);

class TreeCheckpoints {
 public:
  // Starts opening the store in `store_dir` for the tree `tree`, capped at `max_bytes`, leaving
  // out the directories `left_out` (CheckpointStore::open).
  static std::shared_ptr<TreeCheckpoints> start(std::filesystem::path store_dir,
                                                std::filesystem::path tree,
                                                std::vector<std::filesystem::path> left_out,
                                                std::uint64_t max_bytes);
  // What checkpoints leave out of a tree: nib's own data (the store, the session files).
  static std::vector<std::filesystem::path> left_out(const util::UserPlaces& places);
  // The checkpoints of `cwd` as `settings` ask (null when they are off, when the user has no
  // data directory, or for the home directory and the root, trees too large to watch whole).
  static std::shared_ptr<TreeCheckpoints> for_tree(const util::UserPlaces& places,
                                                   const std::filesystem::path& cwd,
                                                   const Settings& settings);
  ~TreeCheckpoints();

  // A checkpoint of the tree now, or why there is none (the run goes on without it).
  util::Result<session::Checkpoint> take(const std::string& label);

  // Runs `use` on the store once it is open; the store's opening error otherwise.
  template <typename Use>
  auto with_store(Use&& use) -> decltype(use(std::declval<session::CheckpointStore&>())) {
    const std::lock_guard lock(mutex_);
    if (const std::string* problem = wait_until_open()) {
      return decltype(use(std::declval<session::CheckpointStore&>()))::failure(*problem);
    }
    return use(*store_);
  }

 private:
  TreeCheckpoints() = default;
  // Null once the store is open; else what went wrong. Needs mutex_.
  const std::string* wait_until_open();

  std::mutex mutex_;
  std::future<util::Result<session::CheckpointStore>> opening_;
  std::optional<session::CheckpointStore> store_;
  std::string open_error_;
};

}  // namespace nib::app
