#pragma once
// grep's results: the matching lines of many files, gathered from the scanning threads while
// keeping only what the output can show, then ordered by path and line and written out as
// "path:line: text" (matches) and "path-line- text" (context), within the output limits.
//
// Thread-safety: MatchCollector::add() may be called from any number of threads at once; the
// other members are for one thread after the adds are done. The free functions are pure.

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "tools/grep_search.hpp"
#include "tools/limits.hpp"

namespace nib::tools {

// One file's part of the results.
struct FileMatches {
  std::string path;             // as shown to the model
  std::vector<GrepLine> lines;  // kept matching lines and their context, in file order
  std::size_t matches = 0;      // matching lines in the file, kept or not
  std::size_t kept_matches = 0;
  std::size_t kept_bytes = 0;  // of the texts in `lines`
};

// True when path `a` sorts before `b` component by component, as in a tree listing: "a/b"
// before "a.c", since the directory "a" sorts before the file "a.c".
bool path_less(std::string_view a, std::string_view b);

// Gathers FileMatches from many threads. Memory stays bounded however many files match: once
// more than twice what the output can show is held, the files that sort last are dropped
// (their matches still count).
class MatchCollector {
 public:
  // Keeps at least the first `keep_matches` matching lines in path order, or as many first files
  // as hold `keep_bytes` of text, whichever is reached first.
  MatchCollector(std::size_t keep_matches, std::size_t keep_bytes);

  // Adds a file with at least one match. Thread-safe.
  void add(FileMatches file);

  // All matching lines added (kept or not), and the files that held them.
  std::size_t total_matches() const;
  std::size_t matching_files() const;

  // The kept files in path order; the collector is empty afterwards.
  std::vector<FileMatches> take_sorted();

 private:
  void prune();  // mutex_ held

  const std::size_t keep_matches_;
  const std::size_t keep_bytes_;
  mutable std::mutex mutex_;
  std::vector<FileMatches> files_;
  std::size_t kept_matches_ = 0;
  std::size_t kept_bytes_ = 0;
  std::size_t total_matches_ = 0;
  std::size_t matching_files_ = 0;
};

struct FormatLimits {
  std::size_t limit = kGrepDefaultLimit;  // matching lines shown
  std::size_t context = 0;                // as searched; > 0 puts "--" between groups
  std::size_t max_bytes = process::kMaxOutputBytes;
  std::size_t max_lines = process::kMaxOutputLines;
};

struct FormattedMatches {
  std::string text;  // the lines, each ending in "\n"
  std::size_t shown_matches = 0;
  bool output_cut = false;  // max_bytes or max_lines stopped the lines
  bool cut_lines = false;   // a shown line was cut (GrepLine::cut)
};

// The lines of `files` (in path_less order) up to the limit-th matching line and its trailing
// context, stopping early at max_bytes or max_lines.
FormattedMatches format_matches(const std::vector<FileMatches>& files, const FormatLimits& limits);

}  // namespace nib::tools
