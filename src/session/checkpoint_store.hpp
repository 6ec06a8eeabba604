#pragma once
// Checkpoints of a working tree: the content of its files that are not ignored, recorded in a
// private content-addressed store (a bare git repository of nib's own, written with libgit2),
// so that any change to them — by a file tool, a command, a job or a subagent — can be taken
// back. The store never touches the user's repository: its objects, index, refs and config are
// its own; the tree is only read (taking) and written (restoring).
//
// Taking is incremental: the store keeps an index of the tree with each file's stat data, so an
// unchanged file costs a stat and a changed one is stored once by content. Files are recorded
// byte for byte: no line-end or other conversion applies, whatever the tree's .gitattributes or
// the user's git config say. Files larger than a limit are left out, and named.
//
// Not thread-safe: one store per tree, used from one thread at a time.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "util/result.hpp"
#include "util/user_places.hpp"

namespace nib::session {

// Files larger than this are not recorded (their change cannot be taken back).
inline constexpr std::uint64_t kMaxCheckpointFileBytes = 10 * 1024 * 1024;

// One file that differs between two states of the tree.
struct FileChange {
  enum class Kind { kAdded, kModified, kDeleted };
  Kind kind = Kind::kModified;
  std::string path;  // relative to the tree, '/'-separated
  std::size_t added_lines = 0;
  std::size_t removed_lines = 0;
  bool binary = false;  // no line counts
};

struct Checkpoint {
  std::string id;                    // the store's name for it (hex)
  std::string label;                 // what it was taken for
  std::vector<std::string> skipped;  // every file left out (too large), relative, sorted
};

// Where the checkpoints of the working directory `cwd` are kept: nib/checkpoints/<cwd encoded
// as for sessions> in the user's data directory; empty when there is none.
std::filesystem::path checkpoint_store_dir(const util::UserPlaces& places,
                                           const std::filesystem::path& cwd);

// How much room checkpoints take on disk by default, per working directory.
inline constexpr std::uint64_t kDefaultCheckpointStoreBytes = 2ull * 1024 * 1024 * 1024;

struct CollectedGarbage {
  std::size_t dropped_checkpoints = 0;
  std::uint64_t bytes_before = 0;
  std::uint64_t bytes_after = 0;
};

class CheckpointStore {
 public:
  // Opens the store in `store_dir` (created when missing) for the tree at `tree`. The
  // directories in `left_out` that lie inside the tree are never recorded nor restored (nib's
  // own data: the store itself, the session files); the store directory always is.
  static util::Result<CheckpointStore> open(
      const std::filesystem::path& store_dir, const std::filesystem::path& tree,
      const std::vector<std::filesystem::path>& left_out = {});
  CheckpointStore(CheckpointStore&&) noexcept;
  CheckpointStore& operator=(CheckpointStore&&) noexcept;
  ~CheckpointStore();

  // Records the tree as it is now, labelled `label`. When nothing changed since the newest
  // checkpoint, that checkpoint's id is returned again.
  util::Result<Checkpoint> take(const std::string& label);

  // The files that differ from checkpoint `from` to checkpoint `to`, by path.
  util::Result<std::vector<FileChange>> changes(const std::string& from,
                                                const std::string& to) const;

  // The unified diff from checkpoint `from` to checkpoint `to` (binary files are named).
  util::Result<std::string> diff_text(const std::string& from, const std::string& to) const;

  // Makes the tree's files that are not ignored what they were at checkpoint `id`: changed and
  // deleted files come back, files added since are removed; ignored files are left alone, and
  // so are the files named in `keep` (relative). The tree as it was is checkpointed first, so
  // the restore can be undone; returns that checkpoint.
  util::Result<Checkpoint> restore(const std::string& id,
                                   const std::vector<std::string>& keep = {});

  // Whether the store holds checkpoint `id`.
  bool has(const std::string& id) const;

  // The bytes the store takes on disk.
  std::uint64_t size_on_disk() const;

  // Drops the oldest checkpoints, and what only they held, until the store takes at most
  // `max_bytes` (the newest checkpoint is always kept).
  util::Result<CollectedGarbage> collect_garbage(std::uint64_t max_bytes);

 private:
  struct State;
  explicit CheckpointStore(std::unique_ptr<State> state);
  // take() while the store's lock is held.
  util::Result<Checkpoint> take_locked(const std::string& label);
  std::unique_ptr<State> state_;
};

}  // namespace nib::session
