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
  std::vector<std::string> skipped;  // files left out (too large), relative
};

class CheckpointStore {
 public:
  // Opens the store in `store_dir` (created when missing) for the tree at `tree`.
  static util::Result<CheckpointStore> open(const std::filesystem::path& store_dir,
                                            const std::filesystem::path& tree);
  CheckpointStore(CheckpointStore&&) noexcept;
  CheckpointStore& operator=(CheckpointStore&&) noexcept;
  ~CheckpointStore();

  // Records the tree as it is now, labelled `label`. When nothing changed since the newest
  // checkpoint, that checkpoint's id is returned again.
  util::Result<Checkpoint> take(const std::string& label);

  // The files that differ from checkpoint `from` to checkpoint `to`, by path.
  util::Result<std::vector<FileChange>> changes(const std::string& from,
                                                const std::string& to) const;

  // Makes the tree's files that are not ignored what they were at checkpoint `id`: changed and
  // deleted files come back, files added since are removed; ignored files are left alone. The
  // tree as it was is checkpointed first, so the restore can be undone; returns that
  // checkpoint.
  util::Result<Checkpoint> restore(const std::string& id);

 private:
  struct State;
  explicit CheckpointStore(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace nib::session
