#include "app/tree_checkpoints.hpp"

#include <utility>

#include "app/settings.hpp"

namespace nib::app {

namespace fs = std::filesystem;

std::uint64_t checkpoint_store_cap(const Settings& settings) {
  return settings.checkpoints_max_store_mb
             ? static_cast<std::uint64_t>(*settings.checkpoints_max_store_mb) * 1024 * 1024
             : session::kDefaultCheckpointStoreBytes;
}

std::vector<fs::path> TreeCheckpoints::left_out(const util::UserPlaces& places) {
  if (places.data_home.empty()) return {};
  return {places.data_home / "nib"};
}

std::shared_ptr<TreeCheckpoints> TreeCheckpoints::start(fs::path store_dir, fs::path tree,
                                                        std::vector<fs::path> left_out,
                                                        std::uint64_t max_bytes) {
  std::shared_ptr<TreeCheckpoints> checkpoints(new TreeCheckpoints());
  checkpoints->opening_ = std::async(
      std::launch::async,
      [store_dir = std::move(store_dir), tree = std::move(tree), left_out = std::move(left_out),
       max_bytes]() -> util::Result<session::CheckpointStore> {
        auto store = session::CheckpointStore::open(store_dir, tree, left_out);
        if (!store.ok()) return store;
        // Old checkpoints go first, before this run adds to the store; a failure to collect
        // leaves it as large as it was.
        (void)store.value().collect_garbage(max_bytes);
        auto first = store.value().take("nib started");
        if (!first.ok()) return util::Result<session::CheckpointStore>::failure(first.error());
        return store;
      });
  return checkpoints;
}

std::shared_ptr<TreeCheckpoints> TreeCheckpoints::for_tree(const util::UserPlaces& places,
                                                           const fs::path& cwd,
                                                           const Settings& settings) {
  if (!settings.checkpoints_enabled.value_or(true)) return nullptr;
  const fs::path store_dir = session::checkpoint_store_dir(places, cwd);
  std::error_code error;
  if (store_dir.empty() || cwd == cwd.root_path() ||
      (!places.home.empty() && fs::equivalent(cwd, places.home, error))) {
    return nullptr;
  }
  return start(store_dir, cwd, left_out(places), checkpoint_store_cap(settings));
}

TreeCheckpoints::~TreeCheckpoints() {
  // The opening thread uses the tree and the store: it must end before they may go.
  if (opening_.valid()) opening_.wait();
}

const std::string* TreeCheckpoints::wait_until_open() {
  if (opening_.valid()) {
    auto opened = opening_.get();
    if (opened.ok()) {
      store_.emplace(std::move(opened.value()));
    } else {
      open_error_ = "no checkpoint store: " + opened.error();
    }
  }
  return store_ ? nullptr : &open_error_;
}

util::Result<session::Checkpoint> TreeCheckpoints::take(const std::string& label) {
  return with_store([&label](session::CheckpointStore& store) { return store.take(label); });
}

}  // namespace nib::app
