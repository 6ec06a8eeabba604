#pragma once
// The directory walk shared by grep and find: parallel over the machine's cores, honouring
// .gitignore / .ignore files (nested, negations, anchored and directory patterns, `**`) and
// skipping hidden entries unless asked. Never hangs or crashes on symlink loops, unreadable
// directories, entries vanishing mid-walk, FIFOs or devices: they are skipped and counted.
//
// Thread-safety: walk_files() calls `on_file` from several worker threads at once; the callback
// must be thread-safe. The walk itself keeps no global state.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace nib::tools {

struct WalkOptions {
  // Dotfiles and dot-directories; without it, only those an ignore file re-includes ("!.github/").
  bool include_hidden = false;
  bool respect_ignore = true;  // .gitignore, .ignore, .git/info/exclude
  // Symlinked files are reported either way; symlinked directories are entered only if true.
  bool follow_symlinks = false;
  // False: links met below the root are passed over altogether, as ripgrep does by default
  // (their targets are normally searched where they live; reporting both would repeat them).
  bool report_symlinks = true;
  // Also call on_file for directories, symlinked ones included (find does).
  bool report_directories = false;
  std::size_t threads = 0;  // 0: one per core, at most kMaxWalkThreads
};

struct WalkEntry {
  std::filesystem::path path;  // absolute
  std::string relative;        // relative to the walk root, '/'-separated
  bool is_directory = false;
};

struct WalkSummary {
  std::size_t files = 0;                // files reported to on_file (directories not counted)
  std::vector<std::string> unreadable;  // directories that could not be listed (relative; "."
                                        // when the root itself is missing or unreadable)
  std::size_t skipped_special = 0;      // FIFOs, sockets, devices
  std::size_t symlink_loops = 0;        // linked directories not entered again (follow_symlinks)
  bool stopped = false;                 // the stop token fired or on_file asked to stop
};

// Calls `on_file` for every regular file (and symlink to one) below `root`, and for every
// directory when report_directories is set, in no particular order. `on_file` returns false to end
// the walk early. When `root` is a file, it is the only entry (relative: its file name), whatever
// the hidden and ignore settings. Ignore files of the directories between the enclosing git
// repository's top and `root` apply too (ignore files are honoured inside a repository or not).
// Entries are reported as their directory listed them: a file deleted since may fail to open.
// Exceptions thrown by `on_file` end the walk and are rethrown here.
WalkSummary walk_files(const std::filesystem::path& root, const WalkOptions& options,
                       std::stop_token stop, const std::function<bool(const WalkEntry&)>& on_file);

}  // namespace nib::tools
