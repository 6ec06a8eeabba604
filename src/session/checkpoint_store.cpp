#include "session/checkpoint_store.hpp"

#include <git2.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <utility>

#include "session/session_store.hpp"
#include "session/tree_watch.hpp"

namespace nib::session {
namespace {

namespace fs = std::filesystem;

// The ref naming the newest checkpoint. Each checkpoint is a commit without parents, kept by a
// ref of its own under kCheckpointRefs, so the oldest can be dropped without rewriting the rest
// (sessions name checkpoints by id).
constexpr const char* kHeadRef = "refs/nib/newest";
constexpr const char* kCheckpointRefs = "refs/nib/c/";

// Every path is recorded and restored byte for byte: no line-end conversion, no ident or filter
// drivers, whatever the tree's own .gitattributes say (info/attributes outranks them).
constexpr const char* kRawAttributes = "* -text -ident -filter\n";

// libgit2 keeps process-wide state (its thread-local errors, its allocator); it is set up once
// and never shut down, as stores may be opened at any time.
void initialise_libgit2() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    // The store makes trees only of objects it has just written or read: checking that each
    // entry's object exists (a file system lookup per entry) would double a checkpoint's cost.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 0);
  });
}

// libgit2's last error, for a message naming what failed.
std::string git_error_text(const std::string& what) {
  const git_error* error = git_error_last();
  return what + ": " + (error != nullptr && error->message != nullptr ? error->message : "failed");
}

template <typename T, void (*Free)(T*)>
struct Owned {
  T* pointer = nullptr;
  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() {
    if (pointer != nullptr) Free(pointer);
  }
  T** out() { return &pointer; }
  T* get() const { return pointer; }
};

using Repository = Owned<git_repository, git_repository_free>;
using Index = Owned<git_index, git_index_free>;
using Tree = Owned<git_tree, git_tree_free>;
using Commit = Owned<git_commit, git_commit_free>;
using Reference = Owned<git_reference, git_reference_free>;
using Signature = Owned<git_signature, git_signature_free>;
using Diff = Owned<git_diff, git_diff_free>;
using Patch = Owned<git_patch, git_patch_free>;
using Config = Owned<git_config, git_config_free>;
using Odb = Owned<git_odb, git_odb_free>;

std::string hex(const git_oid& oid) {
  char text[GIT_OID_HEXSZ + 1];
  git_oid_tostr(text, sizeof text, &oid);
  return text;
}

// The config that makes the store record bytes as they are and look only at the file system.
bool configure(git_repository* repository) {
  Config config;
  if (git_repository_config(config.out(), repository) != 0) return false;
  return git_config_set_bool(config.get(), "core.autocrlf", false) == 0 &&
         git_config_set_string(config.get(), "core.safecrlf", "false") == 0 &&
         git_config_set_bool(config.get(), "core.filemode", true) == 0 &&
         git_config_set_bool(config.get(), "core.symlinks", true) == 0;
}

bool write_text(const fs::path& path, const std::string& text) {
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out.flush());
}

struct SkipState {
  const fs::path* tree;
  std::vector<std::string>* skipped;
};

// Whether a file with stat data `info` is left out of checkpoints.
bool too_large(const struct stat& info) {
  return S_ISREG(info.st_mode) &&
         static_cast<std::uint64_t>(info.st_size) > kMaxCheckpointFileBytes;
}

// git_index_add_all's callback: leaves out files over the size limit (returning > 0 skips).
int skip_large_files(const char* path, const char* /*matched*/, void* payload) {
  auto* state = static_cast<SkipState*>(payload);
  struct stat info {};
  if (lstat((*state->tree / path).c_str(), &info) != 0 || !too_large(info)) return 0;
  state->skipped->push_back(path);
  return 1;
}

// Whether a file with stat data `info` still has what `entry` recorded: then its content is
// taken as unchanged, as git does.
bool same_stat(const git_index_entry& entry, const struct stat& info) {
  return entry.mtime.seconds == static_cast<std::int32_t>(info.st_mtim.tv_sec) &&
         entry.mtime.nanoseconds == static_cast<std::uint32_t>(info.st_mtim.tv_nsec) &&
         entry.ctime.seconds == static_cast<std::int32_t>(info.st_ctim.tv_sec) &&
         entry.ctime.nanoseconds == static_cast<std::uint32_t>(info.st_ctim.tv_nsec) &&
         entry.file_size == static_cast<std::uint32_t>(info.st_size) &&
         entry.ino == static_cast<std::uint32_t>(info.st_ino);
}

// Held while the store is written or restored from: two nibs in one directory share its store,
// and a lock file libgit2 left behind when a nib was killed mid-write is stale once this is
// held (flock's lock ends with its process, whatever kills it).
class StoreLock {
 public:
  explicit StoreLock(const fs::path& store_dir)
      : fd_(::open((store_dir / "nib.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)) {
    if (fd_ >= 0) {
      while (flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
    std::error_code error;
    for (const char* name : {"index.lock", "packed-refs.lock", "refs/nib/newest.lock"}) {
      fs::remove(store_dir / name, error);
    }
    for (fs::directory_iterator entry(store_dir / "refs/nib/c", error), end; !error && entry != end;
         entry.increment(error)) {
      if (entry->path().extension() == ".lock") fs::remove(entry->path(), error);
    }
  }
  StoreLock(const StoreLock&) = delete;
  StoreLock& operator=(const StoreLock&) = delete;
  ~StoreLock() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  int fd_;
};

// Whether every object under `tree` is in the store: a restore from a damaged store must
// refuse before it writes the first file.
bool complete(git_repository* repository, git_odb* odb, const git_tree* tree) {
  const std::size_t count = git_tree_entrycount(tree);
  for (std::size_t at = 0; at < count; ++at) {
    const git_tree_entry* entry = git_tree_entry_byindex(tree, at);
    if (git_tree_entry_type(entry) == GIT_OBJECT_TREE) {
      Tree subtree;
      if (git_tree_lookup(subtree.out(), repository, git_tree_entry_id(entry)) != 0 ||
          !complete(repository, odb, subtree.get())) {
        return false;
      }
    } else if (git_odb_exists(odb, git_tree_entry_id(entry)) == 0) {
      return false;
    }
  }
  return true;
}

// Now, less well over a kernel tick: file times come from a coarse clock, so a file changed
// after this moment may carry a time before it (State::racy_since).
struct timespec racy_boundary_now() {
  constexpr long kGranularityNs = 50'000'000;
  struct timespec now {};
  clock_gettime(CLOCK_REALTIME, &now);
  now.tv_nsec -= kGranularityNs;
  if (now.tv_nsec < 0) {
    now.tv_nsec += 1'000'000'000;
    --now.tv_sec;
  }
  return now;
}

}  // namespace

struct CheckpointStore::State {
  Repository repository;
  fs::path tree;
  // Which directories changed since the last checkpoint (none: every checkpoint looks at the
  // whole tree). The first checkpoint of a process always looks at the whole tree: the store's
  // index may be older than changes made while nib was not running.
  std::unique_ptr<TreeWatch> watch;
  bool looked_at_whole_tree = false;
  // The root tree of the last checkpoint: after the first, a checkpoint builds only the trees
  // of the directories that changed (and their parents) and takes the rest from it.
  std::optional<git_oid> last_root;
  // Whether the index has entries not yet written to its file (written when the store closes
  // and before a restore: rewriting all of it, megabytes for a large tree, at every checkpoint
  // would cost more than the rest of the checkpoint).
  bool index_unwritten = false;
  // The files left out for their size, as of the last checkpoint (relative paths).
  std::set<std::string> large_files;
  // When the previous checkpoint began, less the file system's timestamp granularity: a file
  // whose recorded time is not older may have changed again within the same tick, so its
  // unchanged stat data prove nothing (git's "racily clean" entries).
  struct timespec racy_since {};

  bool racy(const git_index_entry& entry) const {
    return entry.mtime.seconds > racy_since.tv_sec ||
           (entry.mtime.seconds == racy_since.tv_sec &&
            static_cast<long>(entry.mtime.nanoseconds) >= racy_since.tv_nsec);
  }

  // Writes the tree of `directory` ("" is the top) from the index: its files from their entries,
  // its subdirectories built again when they are in `rebuild`, else taken from `previous` (the
  // last checkpoint's tree of the directory, null when it had none). Entries are found by binary
  // search, so a directory costs its own entries, not its whole subtree. Empty: no entries.
  util::Result<std::optional<git_oid>> build_tree(git_index* index, const std::string& directory,
                                                  const git_tree* previous,
                                                  const std::set<std::string>& rebuild) {
    using Result = util::Result<std::optional<git_oid>>;
    const std::string prefix = directory.empty() ? "" : directory + "/";
    const std::size_t count = git_index_entrycount(index);
    const auto first_at_or_after = [&](const std::string& path) {
      std::size_t low = 0;
      std::size_t high = count;
      while (low < high) {
        const std::size_t middle = low + (high - low) / 2;
        if (std::string_view(git_index_get_byindex(index, middle)->path) < path) {
          low = middle + 1;
        } else {
          high = middle;
        }
      }
      return low;
    };
    Owned<git_treebuilder, git_treebuilder_free> builder;
    if (git_treebuilder_new(builder.out(), repository.get(), nullptr) != 0) {
      return Result::failure(git_error_text("cannot build a checkpoint tree"));
    }
    bool any = false;
    for (std::size_t at = first_at_or_after(prefix); at < count;) {
      const git_index_entry* entry = git_index_get_byindex(index, at);
      const std::string_view path = entry->path;
      if (!path.starts_with(prefix)) break;
      const std::string_view rest = path.substr(prefix.size());
      const std::size_t slash = rest.find('/');
      if (slash == std::string_view::npos) {
        if (git_treebuilder_insert(nullptr, builder.get(), std::string(rest).c_str(), &entry->id,
                                   static_cast<git_filemode_t>(entry->mode)) != 0) {
          return Result::failure(git_error_text("cannot build a checkpoint tree"));
        }
        any = true;
        ++at;
        continue;
      }
      const std::string name(rest.substr(0, slash));
      const std::string child = prefix + name;
      // Every path under child/ sorts before child + '0' ('/' + 1) and no other does.
      at = first_at_or_after(child + '0');
      const git_tree_entry* old =
          previous == nullptr ? nullptr : git_tree_entry_byname(previous, name.c_str());
      if (old != nullptr && git_tree_entry_type(old) != GIT_OBJECT_TREE) old = nullptr;
      git_oid id;
      if (old != nullptr && !rebuild.contains(child)) {
        git_oid_cpy(&id, git_tree_entry_id(old));
      } else {
        Tree previous_child;
        if (old != nullptr) {
          git_tree_lookup(previous_child.out(), repository.get(), git_tree_entry_id(old));
        }
        auto built = build_tree(index, child, previous_child.get(), rebuild);
        if (!built.ok()) return built;
        if (!built.value()) continue;
        id = *built.value();
      }
      if (git_treebuilder_insert(nullptr, builder.get(), name.c_str(), &id, GIT_FILEMODE_TREE) !=
          0) {
        return Result::failure(git_error_text("cannot build a checkpoint tree"));
      }
      any = true;
    }
    if (!any) return std::optional<git_oid>();
    git_oid id;
    if (git_treebuilder_write(&id, builder.get()) != 0) {
      return Result::failure(git_error_text("cannot write a checkpoint tree"));
    }
    return std::optional<git_oid>(id);
  }

  bool ignored(const std::string& relative) const {
    int ignored = 0;
    return git_ignore_path_is_ignored(&ignored, repository.get(), relative.c_str()) == 0 &&
           ignored != 0;
  }

  // Brings the index's entries for the files directly in `directory` up to date with the disk;
  // entries of subdirectories that are gone are dropped. False when libgit2 failed.
  // Counts the entries it changed in `changed_entries`.
  bool rescan(git_index* index, const std::string& directory, std::vector<std::string>& skipped,
              std::size_t& changed_entries) {
    const fs::path full = directory.empty() ? tree : tree / directory;
    std::set<std::string> files;
    std::set<std::string> directories;
    std::error_code error;
    for (fs::directory_iterator entries(full, error), end; !error && entries != end;
         entries.increment(error)) {
      const std::string name = entries->path().filename().string();
      struct stat info {};
      if (name == ".git" || lstat(entries->path().c_str(), &info) != 0) continue;
      if (S_ISDIR(info.st_mode)) {
        directories.insert(name);
        continue;
      }
      if (!S_ISREG(info.st_mode) && !S_ISLNK(info.st_mode)) continue;
      files.insert(name);
      const std::string relative = (fs::path(directory) / name).generic_string();
      const git_index_entry* entry = git_index_get_bypath(index, relative.c_str(), 0);
      if (entry == nullptr && ignored(relative)) continue;
      if (too_large(info)) {
        skipped.push_back(relative);
        if (entry != nullptr) {
          git_index_remove_bypath(index, relative.c_str());
          ++changed_entries;
        }
        continue;
      }
      if (entry != nullptr && same_stat(*entry, info) && !racy(*entry)) continue;
      if (git_index_add_bypath(index, relative.c_str()) != 0) return false;
      ++changed_entries;
    }
    // Entries under the directory that the disk no longer has.
    const std::string prefix = directory.empty() ? "" : directory + "/";
    std::vector<std::string> gone_files;
    std::set<std::string> gone_directories;
    std::size_t at = 0;
    if (git_index_find_prefix(&at, index, prefix.c_str()) == 0) {
      for (const git_index_entry* entry; (entry = git_index_get_byindex(index, at)) != nullptr;
           ++at) {
        const std::string_view path = entry->path;
        if (!path.starts_with(prefix)) break;
        const std::string_view rest = path.substr(prefix.size());
        const std::size_t slash = rest.find('/');
        if (slash == std::string_view::npos) {
          if (!files.contains(std::string(rest))) gone_files.emplace_back(path);
        } else if (!directories.contains(std::string(rest.substr(0, slash)))) {
          gone_directories.insert(prefix + std::string(rest.substr(0, slash)));
        }
      }
    }
    changed_entries += gone_files.size() + gone_directories.size();
    for (const std::string& path : gone_files) git_index_remove_bypath(index, path.c_str());
    for (const std::string& path : gone_directories) {
      git_index_remove_directory(index, path.c_str(), 0);
    }
    return true;
  }
};

CheckpointStore::CheckpointStore(std::unique_ptr<State> state) : state_(std::move(state)) {}
CheckpointStore::CheckpointStore(CheckpointStore&&) noexcept = default;
CheckpointStore& CheckpointStore::operator=(CheckpointStore&&) noexcept = default;
CheckpointStore::~CheckpointStore() {
  // The next process's first checkpoint then reads only what changed while nib was away.
  if (state_ && state_->index_unwritten) {
    const StoreLock lock(git_repository_path(state_->repository.get()));
    Index index;
    if (git_repository_index(index.out(), state_->repository.get()) == 0) {
      git_index_write(index.get());
    }
  }
}

namespace {

// The store's info/exclude: the directories of `left_out` (and the store) inside `tree`, as
// patterns anchored at the tree's root, so that the store never records nib's own files.
std::string exclude_patterns(const fs::path& store_dir, const fs::path& tree,
                             std::vector<fs::path> left_out) {
  left_out.push_back(store_dir);
  std::string patterns;
  const fs::path root = fs::weakly_canonical(tree);
  for (const fs::path& directory : left_out) {
    const fs::path relative = fs::weakly_canonical(directory).lexically_relative(root);
    if (relative.empty() || *relative.begin() == ".." || relative == ".") continue;
    patterns += "/" + relative.generic_string() + "/\n";
  }
  return patterns;
}

}  // namespace

util::Result<CheckpointStore> CheckpointStore::open(const fs::path& store_dir, const fs::path& tree,
                                                    const std::vector<fs::path>& left_out) {
  using Result = util::Result<CheckpointStore>;
  initialise_libgit2();
  auto state = std::make_unique<State>();
  state->tree = tree;
  git_repository_init_options options = GIT_REPOSITORY_INIT_OPTIONS_INIT;
  options.flags = GIT_REPOSITORY_INIT_BARE | GIT_REPOSITORY_INIT_MKPATH;
  if (git_repository_init_ext(state->repository.out(), store_dir.c_str(), &options) != 0) {
    return Result::failure(
        git_error_text("cannot open the checkpoint store " + store_dir.string()));
  }
  if (!configure(state->repository.get()) ||
      !write_text(store_dir / "info" / "attributes", kRawAttributes) ||
      !write_text(store_dir / "info" / "exclude", exclude_patterns(store_dir, tree, left_out))) {
    return Result::failure(
        git_error_text("cannot set up the checkpoint store " + store_dir.string()));
  }
  // The tree is the store's work tree; no .git file is written into it (update_gitlink 0).
  if (git_repository_set_workdir(state->repository.get(), tree.c_str(), 0) != 0) {
    return Result::failure(git_error_text("cannot use " + tree.string() + " as a working tree"));
  }
  const State* watched = state.get();
  state->watch = TreeWatch::start(tree, [watched](const std::string& relative) {
    return fs::path(relative).filename() == ".git" || watched->ignored(relative + "/");
  });
  return CheckpointStore(std::move(state));
}

util::Result<Checkpoint> CheckpointStore::take(const std::string& label) {
  const StoreLock lock(git_repository_path(state_->repository.get()));
  return take_locked(label);
}

util::Result<Checkpoint> CheckpointStore::take_locked(const std::string& label) {
  using Result = util::Result<Checkpoint>;
  git_repository* repository = state_->repository.get();
  Index index;
  if (git_repository_index(index.out(), repository) != 0) {
    // The index only saves reading unchanged files: a damaged one is dropped and the tree
    // looked at whole again.
    std::error_code error;
    fs::remove(fs::path(git_repository_path(repository)) / "index", error);
    state_->looked_at_whole_tree = false;
    if (git_repository_index(index.out(), repository) != 0) {
      return Result::failure(git_error_text("cannot read the checkpoint index"));
    }
  }
  Checkpoint checkpoint{.label = label};
  SkipState skip{&state_->tree, &checkpoint.skipped};
  const struct timespec started = racy_boundary_now();
  const auto changed = state_->watch ? state_->watch->take_changed() : std::nullopt;
  const bool incremental = changed && state_->looked_at_whole_tree && state_->last_root;
  git_oid tree_id;
  if (incremental) {
    std::size_t changed_entries = 0;
    for (const std::string& directory : *changed) {
      if (!state_->rescan(index.get(), directory, checkpoint.skipped, changed_entries)) {
        return Result::failure(git_error_text("cannot record the working tree"));
      }
    }
    for (const std::string& path : checkpoint.skipped) {
      git_index_remove_bypath(index.get(), path.c_str());
    }
    // The directories looked at say again which of their files are too large.
    std::erase_if(state_->large_files, [&changed](const std::string& path) {
      const std::size_t slash = path.rfind('/');
      return changed->contains(slash == std::string::npos ? "" : path.substr(0, slash));
    });
    state_->index_unwritten = state_->index_unwritten || changed_entries > 0;
    // The changed directories and every directory above them are built again; the rest of
    // the tree is the last checkpoint's.
    std::set<std::string> rebuild{""};
    for (const std::string& directory : *changed) {
      for (std::string at = directory; !at.empty() && rebuild.insert(at).second;) {
        const std::size_t slash = at.rfind('/');
        at = slash == std::string::npos ? "" : at.substr(0, slash);
      }
    }
    if (changed->empty()) {
      tree_id = *state_->last_root;
    } else {
      Tree previous;
      git_tree_lookup(previous.out(), repository, &*state_->last_root);
      auto built = state_->build_tree(index.get(), "", previous.get(), rebuild);
      if (!built.ok()) return Result::failure(built.error());
      if (built.value()) {
        tree_id = *built.value();
      } else if (git_index_write_tree(&tree_id, index.get()) != 0) {  // the empty tree
        return Result::failure(git_error_text("cannot write the checkpoint"));
      }
    }
  } else {
    // add_all adds and updates files that are not ignored, by their stat data first (unchanged
    // files are not read); update_all drops the entries of files that are gone.
    if (git_index_add_all(index.get(), nullptr, GIT_INDEX_ADD_DEFAULT, skip_large_files, &skip) !=
            0 ||
        git_index_update_all(index.get(), nullptr, nullptr, nullptr) != 0) {
      return Result::failure(git_error_text("cannot record the working tree"));
    }
    for (const std::string& path : checkpoint.skipped) {
      git_index_remove_bypath(index.get(), path.c_str());
    }
    if (git_index_write_tree(&tree_id, index.get()) != 0 || git_index_write(index.get()) != 0) {
      return Result::failure(git_error_text("cannot write the checkpoint"));
    }
    state_->looked_at_whole_tree = true;
    state_->index_unwritten = false;
    state_->large_files.clear();
  }
  state_->large_files.insert(checkpoint.skipped.begin(), checkpoint.skipped.end());
  checkpoint.skipped.assign(state_->large_files.begin(), state_->large_files.end());
  state_->last_root = tree_id;
  state_->racy_since = started;
  Tree tree;
  Signature signature;
  if (git_tree_lookup(tree.out(), repository, &tree_id) != 0 ||
      git_signature_now(signature.out(), "nib", "nib@localhost") != 0) {
    return Result::failure(git_error_text("cannot write the checkpoint"));
  }
  Commit newest;
  git_oid newest_id;
  if (git_reference_name_to_id(&newest_id, repository, kHeadRef) == 0 &&
      git_commit_lookup(newest.out(), repository, &newest_id) == 0 &&
      git_oid_equal(git_commit_tree_id(newest.get()), &tree_id)) {
    // Nothing changed since the newest checkpoint: this one is that one.
    checkpoint.id = hex(newest_id);
    return checkpoint;
  }
  git_oid commit_id;
  if (git_commit_create(&commit_id, repository, nullptr, signature.get(), signature.get(), nullptr,
                        label.c_str(), tree.get(), 0, nullptr) != 0) {
    return Result::failure(git_error_text("cannot write the checkpoint"));
  }
  Reference own;
  Reference head;
  if (git_reference_create(own.out(), repository, (kCheckpointRefs + hex(commit_id)).c_str(),
                           &commit_id, /*force=*/1, "checkpoint") != 0 ||
      git_reference_create(head.out(), repository, kHeadRef, &commit_id, /*force=*/1,
                           "checkpoint") != 0) {
    return Result::failure(git_error_text("cannot write the checkpoint"));
  }
  checkpoint.id = hex(commit_id);
  return checkpoint;
}

namespace {

// The tree of checkpoint `id`, or why there is none.
util::Result<std::pair<std::unique_ptr<Commit>, std::unique_ptr<Tree>>> checkpoint_tree(
    git_repository* repository, const std::string& id) {
  using Result = util::Result<std::pair<std::unique_ptr<Commit>, std::unique_ptr<Tree>>>;
  git_oid oid;
  auto commit = std::make_unique<Commit>();
  auto tree = std::make_unique<Tree>();
  // A checkpoint is in the store while its ref is (garbage collection drops the ref first).
  git_oid kept;
  if (git_oid_fromstrp(&oid, id.c_str()) != 0 ||
      git_reference_name_to_id(&kept, repository, (kCheckpointRefs + hex(oid)).c_str()) != 0 ||
      git_commit_lookup(commit->out(), repository, &oid) != 0) {
    return Result::failure("no checkpoint " + id + " in the store");
  }
  if (git_commit_tree(tree->out(), commit->get()) != 0) {
    return Result::failure(git_error_text("cannot read checkpoint " + id));
  }
  return std::make_pair(std::move(commit), std::move(tree));
}

// The diff from checkpoint `from` to checkpoint `to`.
util::Result<std::unique_ptr<Diff>> diff_between(git_repository* repository,
                                                 const std::string& from, const std::string& to) {
  using Result = util::Result<std::unique_ptr<Diff>>;
  auto before = checkpoint_tree(repository, from);
  if (!before.ok()) return Result::failure(before.error());
  auto after = checkpoint_tree(repository, to);
  if (!after.ok()) return Result::failure(after.error());
  auto diff = std::make_unique<Diff>();
  if (git_diff_tree_to_tree(diff->out(), repository, before.value().second->get(),
                            after.value().second->get(), nullptr) != 0) {
    return Result::failure(git_error_text("cannot compare the checkpoints"));
  }
  return diff;
}

FileChange::Kind change_kind(git_delta_t status) {
  if (status == GIT_DELTA_ADDED) return FileChange::Kind::kAdded;
  if (status == GIT_DELTA_DELETED) return FileChange::Kind::kDeleted;
  return FileChange::Kind::kModified;
}

}  // namespace

util::Result<std::vector<FileChange>> CheckpointStore::changes(const std::string& from,
                                                               const std::string& to) const {
  using Result = util::Result<std::vector<FileChange>>;
  auto diff = diff_between(state_->repository.get(), from, to);
  if (!diff.ok()) return Result::failure(diff.error());
  std::vector<FileChange> changes;
  git_diff* const deltas = diff.value()->get();
  const std::size_t count = git_diff_num_deltas(deltas);
  for (std::size_t at = 0; at < count; ++at) {
    const git_diff_delta* delta = git_diff_get_delta(deltas, at);
    FileChange change;
    change.kind = change_kind(delta->status);
    change.path = delta->status == GIT_DELTA_DELETED ? delta->old_file.path : delta->new_file.path;
    Patch patch;
    if (git_patch_from_diff(patch.out(), deltas, at) == 0 && patch.get() != nullptr) {
      std::size_t context = 0;
      git_patch_line_stats(&context, &change.added_lines, &change.removed_lines, patch.get());
      change.binary = (git_patch_get_delta(patch.get())->flags & GIT_DIFF_FLAG_BINARY) != 0;
    }
    changes.push_back(std::move(change));
  }
  return changes;
}

util::Result<std::string> CheckpointStore::diff_text(const std::string& from,
                                                     const std::string& to) const {
  using Result = util::Result<std::string>;
  auto diff = diff_between(state_->repository.get(), from, to);
  if (!diff.ok()) return Result::failure(diff.error());
  std::string text;
  git_diff_print(
      diff.value()->get(), GIT_DIFF_FORMAT_PATCH,
      [](const git_diff_delta*, const git_diff_hunk*, const git_diff_line* line, void* payload) {
        auto* out = static_cast<std::string*>(payload);
        if (line->origin == GIT_DIFF_LINE_ADDITION || line->origin == GIT_DIFF_LINE_DELETION ||
            line->origin == GIT_DIFF_LINE_CONTEXT) {
          out->push_back(line->origin);
        }
        out->append(line->content, line->content_len);
        return 0;
      },
      &text);
  return text;
}

util::Result<Checkpoint> CheckpointStore::restore(const std::string& id,
                                                  const std::vector<std::string>& keep) {
  using Result = util::Result<Checkpoint>;
  git_repository* repository = state_->repository.get();
  const StoreLock lock(git_repository_path(repository));
  auto target = checkpoint_tree(repository, id);
  if (!target.ok()) return Result::failure(target.error());
  Odb odb;
  if (git_repository_odb(odb.out(), repository) != 0 ||
      !complete(repository, odb.get(), target.value().second->get())) {
    return Result::failure("checkpoint " + id +
                           " is damaged in the store (files of it are missing); nothing was "
                           "changed");
  }
  auto before = take_locked("before restoring " + id);
  if (!before.ok()) return before;
  // The checkout reads the index from its file.
  Index index;
  if (git_repository_index(index.out(), repository) != 0 || git_index_write(index.get()) != 0) {
    return Result::failure(git_error_text("cannot restore checkpoint " + id));
  }
  state_->index_unwritten = false;
  // The index now holds the tree as it is: forcing a checkout of the target writes every file
  // that differs and removes those the target lacks; ignored files are not in the index and
  // stay. Files to keep are left out by naming every other file that differs.
  git_checkout_options options = GIT_CHECKOUT_OPTIONS_INIT;
  options.checkout_strategy = GIT_CHECKOUT_FORCE;
  std::vector<std::string> paths;
  std::vector<char*> path_pointers;
  if (!keep.empty()) {
    auto differing = changes(before.value().id, id);
    if (!differing.ok()) return Result::failure(differing.error());
    for (const FileChange& change : differing.value()) {
      if (std::find(keep.begin(), keep.end(), change.path) == keep.end()) {
        paths.push_back(change.path);
      }
    }
    if (paths.empty()) return before;
    for (std::string& path : paths) path_pointers.push_back(path.data());
    options.paths = {path_pointers.data(), path_pointers.size()};
    options.checkout_strategy |= GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
  }
  if (git_checkout_tree(repository,
                        reinterpret_cast<const git_object*>(target.value().second->get()),
                        &options) != 0) {
    return Result::failure(git_error_text("cannot restore checkpoint " + id) +
                           "; the tree as it was is checkpoint " + before.value().id);
  }
  return before;
}

bool CheckpointStore::has(const std::string& id) const {
  return checkpoint_tree(state_->repository.get(), id).ok();
}

std::uint64_t CheckpointStore::size_on_disk() const {
  std::uint64_t bytes = 0;
  std::error_code error;
  const fs::path root = git_repository_path(state_->repository.get());
  for (fs::recursive_directory_iterator entry(root, error), end; !error && entry != end;
       entry.increment(error)) {
    struct stat info {};
    if (lstat(entry->path().c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
      bytes += static_cast<std::uint64_t>(info.st_size);
    }
  }
  return bytes;
}

namespace {

struct CheckpointRef {
  std::string name;
  git_oid commit;
  // When its ref was written, in nanoseconds: commit times have whole seconds only, and a
  // second may hold many checkpoints.
  std::int64_t written = 0;
};

// Every checkpoint's ref, oldest first, the newest checkpoint's last.
std::vector<CheckpointRef> checkpoint_refs(git_repository* repository) {
  struct Listing {
    git_repository* repository;
    std::vector<CheckpointRef> refs;
  } listing{repository, {}};
  git_reference_foreach_glob(
      repository, (std::string(kCheckpointRefs) + "*").c_str(),
      [](const char* name, void* payload) {
        auto* found = static_cast<Listing*>(payload);
        CheckpointRef ref{name, {}, 0};
        struct stat info {};
        if (git_reference_name_to_id(&ref.commit, found->repository, name) != 0) return 0;
        if (lstat((fs::path(git_repository_path(found->repository)) / name).c_str(), &info) == 0) {
          ref.written =
              static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
        }
        found->refs.push_back(std::move(ref));
        return 0;
      },
      &listing);
  git_oid newest;
  const bool has_newest = git_reference_name_to_id(&newest, repository, kHeadRef) == 0;
  std::stable_sort(listing.refs.begin(), listing.refs.end(),
                   [&](const CheckpointRef& a, const CheckpointRef& b) {
                     const bool a_newest = has_newest && git_oid_equal(&a.commit, &newest);
                     const bool b_newest = has_newest && git_oid_equal(&b.commit, &newest);
                     if (a_newest != b_newest) return b_newest;
                     return a.written < b.written;
                   });
  return listing.refs;
}

std::string raw(const git_oid& oid) {
  return std::string(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ);
}

// Adds `tree` and everything under it to `reachable`; subtrees already there are not walked
// again (checkpoints share most of theirs).
void mark_tree(git_repository* repository, const git_oid& id,
               std::unordered_set<std::string>& reachable) {
  if (!reachable.insert(raw(id)).second) return;
  Tree tree;
  if (git_tree_lookup(tree.out(), repository, &id) != 0) return;
  const std::size_t count = git_tree_entrycount(tree.get());
  for (std::size_t at = 0; at < count; ++at) {
    const git_tree_entry* entry = git_tree_entry_byindex(tree.get(), at);
    if (git_tree_entry_type(entry) == GIT_OBJECT_TREE) {
      mark_tree(repository, *git_tree_entry_id(entry), reachable);
    } else {
      reachable.insert(raw(*git_tree_entry_id(entry)));
    }
  }
}

// Removes the store's loose objects that no kept checkpoint reaches.
void prune(git_repository* repository, const std::vector<CheckpointRef>& kept) {
  std::unordered_set<std::string> reachable;
  for (const CheckpointRef& ref : kept) {
    Commit commit;
    if (git_commit_lookup(commit.out(), repository, &ref.commit) != 0) continue;
    reachable.insert(raw(ref.commit));
    mark_tree(repository, *git_commit_tree_id(commit.get()), reachable);
  }
  Odb odb;
  if (git_repository_odb(odb.out(), repository) != 0) return;
  std::vector<git_oid> unreachable;
  struct Walk {
    const std::unordered_set<std::string>* reachable;
    std::vector<git_oid>* unreachable;
  } walk{&reachable, &unreachable};
  git_odb_foreach(
      odb.get(),
      [](const git_oid* id, void* payload) {
        auto* state = static_cast<Walk*>(payload);
        if (!state->reachable->contains(raw(*id))) state->unreachable->push_back(*id);
        return 0;
      },
      &walk);
  const fs::path objects = fs::path(git_repository_path(repository)) / "objects";
  for (const git_oid& id : unreachable) {
    const std::string name = hex(id);
    std::error_code error;
    fs::remove(objects / name.substr(0, 2) / name.substr(2), error);
  }
}

}  // namespace

util::Result<CollectedGarbage> CheckpointStore::collect_garbage(std::uint64_t max_bytes) {
  git_repository* repository = state_->repository.get();
  const StoreLock lock(git_repository_path(repository));
  CollectedGarbage collected;
  collected.bytes_before = collected.bytes_after = size_on_disk();
  std::vector<CheckpointRef> refs = checkpoint_refs(repository);
  // Each round drops the oldest quarter (at least one) and measures again: what a checkpoint
  // alone holds is known only once it is gone.
  while (collected.bytes_after > max_bytes && refs.size() > 1) {
    const std::size_t drop = std::max<std::size_t>(1, refs.size() / 4);
    for (std::size_t at = 0; at < drop; ++at) {
      Reference ref;
      if (git_reference_lookup(ref.out(), repository, refs[at].name.c_str()) == 0) {
        git_reference_delete(ref.get());
      }
    }
    refs.erase(refs.begin(), refs.begin() + static_cast<std::ptrdiff_t>(drop));
    collected.dropped_checkpoints += drop;
    prune(repository, refs);
    collected.bytes_after = size_on_disk();
  }
  return collected;
}

fs::path checkpoint_store_dir(const util::UserPlaces& places, const fs::path& cwd) {
  if (places.data_home.empty()) return {};
  return places.data_home / "nib" / "checkpoints" / encode_directory_name(cwd);
}

}  // namespace nib::session
