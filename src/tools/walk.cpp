#include "tools/walk.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "process/unique_fd.hpp"
#include "tools/ignore_rules.hpp"
#include "tools/limits.hpp"

namespace nib::tools {
namespace {

// Bytes asked of each getdents64 call: a few calls list a directory of thousands of entries.
constexpr std::size_t kDirentChunkBytes = 64 * 1024;

// A directory on the way from the root, for spotting symlink loops when links are followed.
struct Ancestor {
  dev_t device;
  ino_t inode;
  std::shared_ptr<const Ancestor> parent;
};

// A directory waiting to be listed.
struct DirTask {
  std::string relative;  // from the walk root; empty for the root
  std::shared_ptr<const IgnoreLevel> ignore;
  std::shared_ptr<const Ancestor> ancestors;  // only when following links
  bool through_link = false;                  // reached through a symlink: open it following one
};

// The regular file at `name` in `directory` (at most kMaxIgnoreFileBytes of it), or nothing when
// it is missing, unreadable or not a regular file (a FIFO named .gitignore must not block us).
std::string read_small_file(int directory, const char* name) {
  const process::UniqueFd file(
      openat(directory, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  struct stat info {};
  if (!file.valid() || fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode)) return {};
  std::string text(std::min<std::uint64_t>(info.st_size, kMaxIgnoreFileBytes), '\0');
  std::size_t filled = 0;
  while (filled < text.size()) {
    const ssize_t count = read(file.get(), text.data() + filled, text.size() - filled);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) break;
    filled += static_cast<std::size_t>(count);
  }
  text.resize(filled);
  return text;
}

// The ignore files found in one directory, as a level above `parent`; `parent` itself when the
// directory has none.
std::shared_ptr<const IgnoreLevel> load_level(int directory, bool has_dot_ignore,
                                              bool has_gitignore, bool has_git,
                                              std::shared_ptr<const IgnoreLevel> parent,
                                              std::size_t prefix_length) {
  if (!has_dot_ignore && !has_gitignore && !has_git) return parent;
  auto level = std::make_shared<IgnoreLevel>();
  if (has_dot_ignore) level->dot_ignore = IgnoreRules::parse(read_small_file(directory, ".ignore"));
  if (has_gitignore)
    level->gitignore = IgnoreRules::parse(read_small_file(directory, ".gitignore"));
  if (has_git) level->exclude = IgnoreRules::parse(read_small_file(directory, ".git/info/exclude"));
  if (level->dot_ignore.empty() && level->gitignore.empty() && level->exclude.empty()) {
    return parent;
  }
  level->parent = std::move(parent);
  level->prefix_length = prefix_length;
  return level;
}

bool entry_exists(const std::filesystem::path& path) {
  struct stat info {};
  return lstat(path.c_str(), &info) == 0;
}

// What a worker reuses from one directory to the next, and its tallies.
struct Scratch {
  std::vector<char> dirents;
  std::string ignore_path;  // base prefix + relative path of the current entry
  std::string absolute;     // absolute path of the current entry
  WalkEntry entry;
  std::vector<DirTask> children;
  std::size_t files = 0;
  std::size_t special = 0;
  std::size_t loops = 0;
};

class Walker {
 public:
  Walker(std::string root, const WalkOptions& options, std::stop_token stop,
         const std::function<bool(const WalkEntry&)>& on_file)
      : root_(std::move(root)), options_(options), stop_(std::move(stop)), on_file_(on_file) {}

  WalkSummary run() {
    DirTask first;
    first.through_link = true;  // the root may be a link to a directory
    if (options_.respect_ignore) first.ignore = ancestor_levels();
    tasks_.push_back(std::move(first));

    const std::size_t count =
        options_.threads != 0
            ? options_.threads
            : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, kMaxWalkThreads);
    std::vector<Scratch> scratches(count);
    {
      std::vector<std::jthread> helpers;
      for (std::size_t i = 1; i < count; ++i) helpers.emplace_back([&, i] { work(scratches[i]); });
      work(scratches[0]);
    }
    if (failure_) std::rethrow_exception(failure_);

    WalkSummary summary;
    for (const Scratch& scratch : scratches) {
      summary.files += scratch.files;
      summary.skipped_special += scratch.special;
      summary.symlink_loops += scratch.loops;
    }
    summary.unreadable = std::move(unreadable_);
    summary.stopped = halted_.load();
    return summary;
  }

 private:
  // The ignore files of the directories from the enclosing repository's top down to the root's
  // parent, so a walk of a subdirectory honours the repository's rules. Outside a repository
  // only the files inside the root count.
  std::shared_ptr<const IgnoreLevel> ancestor_levels() {
    const std::filesystem::path root(root_);
    if (entry_exists(root / ".git")) return nullptr;
    std::vector<std::filesystem::path> chain;  // root's parent first
    std::filesystem::path top;
    for (auto dir = root.parent_path(); !dir.empty(); dir = dir.parent_path()) {
      chain.push_back(dir);
      if (entry_exists(dir / ".git")) {
        top = dir;
        break;
      }
      if (dir == dir.parent_path()) break;
    }
    if (top.empty()) return nullptr;

    std::shared_ptr<const IgnoreLevel> level;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const process::UniqueFd dir(open(it->c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
      if (!dir.valid()) continue;
      const std::string inside = it->lexically_relative(top).string();
      const std::size_t prefix_length = inside == "." ? 0 : inside.size() + 1;
      level = load_level(dir.get(), true, true, *it == top, std::move(level), prefix_length);
    }
    base_prefix_ = root.lexically_relative(top).string() + "/";
    return level;
  }

  // Takes directories off the shared stack until none is left and no worker can add more.
  void work(Scratch& scratch) {
    try {
      while (true) {
        DirTask task;
        {
          std::unique_lock lock(mutex_);
          wake_.wait(lock, stop_, [&] { return !tasks_.empty() || busy_ == 0 || halted_; });
          if (stop_.stop_requested()) halted_ = true;
          if (halted_ || tasks_.empty()) break;
          task = std::move(tasks_.back());
          tasks_.pop_back();
          ++busy_;
        }
        list_directory(task, scratch);
        const std::size_t added = scratch.children.size();
        bool finished = false;
        {
          std::lock_guard lock(mutex_);
          --busy_;
          for (auto& child : scratch.children) tasks_.push_back(std::move(child));
          finished = busy_ == 0 && tasks_.empty();
        }
        scratch.children.clear();
        // One new directory needs one more worker; the last one out lets the others leave.
        if (added == 1) wake_.notify_one();
        if (added > 1 || finished) wake_.notify_all();
      }
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      halted_ = true;
    }
    wake_.notify_all();
  }

  bool halting() {
    if (halted_.load(std::memory_order_relaxed)) return true;
    if (!stop_.stop_requested()) return false;
    halted_ = true;
    return true;
  }

  void note_unreadable(const std::string& relative) {
    std::lock_guard lock(mutex_);
    unreadable_.push_back(relative.empty() ? "." : relative);
  }

  // Reads the whole of `directory` into scratch.dirents; returns the bytes used, or nullopt
  // when listing failed or the walk is halting.
  std::optional<std::size_t> read_entries(int directory, const DirTask& task, Scratch& scratch) {
    std::size_t used = 0;
    while (true) {
      if (halting()) return std::nullopt;
      if (scratch.dirents.size() < used + kDirentChunkBytes) {
        scratch.dirents.resize(used + kDirentChunkBytes);
      }
      const ssize_t count = getdents64(directory, scratch.dirents.data() + used, kDirentChunkBytes);
      if (count < 0 && errno == EINTR) continue;
      if (count < 0) {
        // The directory went away under us, or it cannot be read.
        if (errno != ENOENT) note_unreadable(task.relative);
        return std::nullopt;
      }
      if (count == 0) return used;
      used += static_cast<std::size_t>(count);
    }
  }

  void list_directory(const DirTask& task, Scratch& scratch) {
    std::string path = root_;
    if (!task.relative.empty()) {
      if (path.back() != '/') path += '/';
      path += task.relative;
    }
    const int no_follow = task.through_link ? 0 : O_NOFOLLOW;
    const process::UniqueFd dir(
        open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | no_follow));
    if (!dir.valid()) {
      // Gone, or replaced by a file or a link since it was listed: nothing to report.
      if (errno != ENOENT && errno != ENOTDIR && errno != ELOOP) note_unreadable(task.relative);
      return;
    }
    std::shared_ptr<const Ancestor> ancestors;
    if (options_.follow_symlinks) {
      struct stat info {};
      if (fstat(dir.get(), &info) != 0) return;
      for (const Ancestor* at = task.ancestors.get(); at != nullptr; at = at->parent.get()) {
        if (at->device == info.st_dev && at->inode == info.st_ino) {
          ++scratch.loops;
          return;
        }
      }
      ancestors = std::make_shared<Ancestor>(Ancestor{info.st_dev, info.st_ino, task.ancestors});
    }
    const auto used = read_entries(dir.get(), task, scratch);
    if (!used) return;

    const auto each_entry = [&](auto&& visit) {
      for (std::size_t offset = 0; offset < *used;) {
        const auto* entry = reinterpret_cast<const dirent64*>(scratch.dirents.data() + offset);
        offset += entry->d_reclen;
        const std::string_view name(entry->d_name);
        if (name == "." || name == "..") continue;
        if (!visit(name, entry->d_type)) return;
      }
    };

    std::shared_ptr<const IgnoreLevel> ignore = task.ignore;
    const std::size_t prefix_length =
        base_prefix_.size() + (task.relative.empty() ? 0 : task.relative.size() + 1);
    if (options_.respect_ignore) {
      bool dot_ignore = false, gitignore = false, git = false;
      each_entry([&](std::string_view name, unsigned char) {
        dot_ignore |= name == ".ignore";
        gitignore |= name == ".gitignore";
        git |= name == ".git";
        return true;
      });
      ignore = load_level(dir.get(), dot_ignore, gitignore, git, std::move(ignore), prefix_length);
    }

    scratch.ignore_path = base_prefix_;
    if (!task.relative.empty()) scratch.ignore_path += task.relative + "/";
    scratch.absolute = path;
    if (scratch.absolute.back() != '/') scratch.absolute += '/';
    const std::size_t absolute_length = scratch.absolute.size();

    each_entry([&](std::string_view name, unsigned char type) {
      if (halting()) return false;
      // .git holds the repository, never the project's files.
      if (name == ".git") return true;
      // A hidden entry gets through only when an ignore file's negation names it ("!.github/").
      const bool hidden = name.front() == '.' && !options_.include_hidden;
      if (hidden && !ignore) return true;
      struct stat info {};
      if (type == DT_UNKNOWN) {
        if (fstatat(dir.get(), name.data(), &info, AT_SYMLINK_NOFOLLOW) != 0) return true;
        type = IFTODT(info.st_mode);
      }
      bool through_link = false;
      if (type == DT_LNK) {
        if (!options_.report_symlinks) return true;
        // A dangling link, or one that vanished, is passed over.
        if (fstatat(dir.get(), name.data(), &info, 0) != 0) return true;
        type = IFTODT(info.st_mode);
        through_link = true;
      }
      const bool is_directory = type == DT_DIR;
      scratch.ignore_path.resize(prefix_length);
      scratch.ignore_path += name;
      const IgnoreVerdict verdict =
          ignore ? ignore_verdict(ignore.get(), scratch.ignore_path, is_directory)
                 : IgnoreVerdict::kNone;
      if (verdict == IgnoreVerdict::kIgnore || (hidden && verdict != IgnoreVerdict::kKeep)) {
        return true;
      }
      if (type != DT_REG && !is_directory) {
        ++scratch.special;
        return true;
      }
      if (!is_directory || options_.report_directories) {
        scratch.absolute.resize(absolute_length);
        scratch.absolute += name;
        scratch.entry.path = scratch.absolute;
        scratch.entry.relative.assign(scratch.ignore_path, base_prefix_.size());
        scratch.entry.is_directory = is_directory;
        if (!is_directory) ++scratch.files;
        if (!on_file_(scratch.entry)) {
          halted_ = true;
          return false;
        }
      }
      // A link to a directory is reported like one, but entered only when following links.
      if (is_directory && (!through_link || options_.follow_symlinks)) {
        scratch.children.push_back(
            {scratch.ignore_path.substr(base_prefix_.size()), ignore, ancestors, through_link});
      }
      return true;
    });
  }

  const std::string root_;  // absolute, lexically normal, no trailing '/' (unless it is "/")
  const WalkOptions& options_;
  const std::stop_token stop_;
  const std::function<bool(const WalkEntry&)>& on_file_;
  // The root's path relative to the directory ignore paths start from, with a trailing '/';
  // empty when that directory is the root itself.
  std::string base_prefix_;

  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::vector<DirTask> tasks_;  // a stack: depth first, so pending work stays small
  std::size_t busy_ = 0;        // workers listing a directory, which may add tasks
  std::atomic<bool> halted_ = false;
  std::vector<std::string> unreadable_;
  std::exception_ptr failure_;
};

}  // namespace

WalkSummary walk_files(const std::filesystem::path& root, const WalkOptions& options,
                       std::stop_token stop, const std::function<bool(const WalkEntry&)>& on_file) {
  WalkSummary summary;
  if (stop.stop_requested()) {
    summary.stopped = true;
    return summary;
  }
  std::error_code ignored;
  std::filesystem::path absolute = std::filesystem::absolute(root, ignored).lexically_normal();
  if (!absolute.has_filename() && absolute.has_relative_path()) absolute = absolute.parent_path();

  struct stat info {};
  if (stat(absolute.c_str(), &info) != 0) {
    summary.unreadable.push_back(".");
    return summary;
  }
  if (S_ISREG(info.st_mode)) {
    WalkEntry entry{absolute, absolute.filename().string(), false};
    summary.files = 1;
    summary.stopped = !on_file(entry);
    return summary;
  }
  if (!S_ISDIR(info.st_mode)) {
    summary.skipped_special = 1;
    return summary;
  }
  return Walker(absolute.string(), options, std::move(stop), on_file).run();
}

}  // namespace nib::tools
