#pragma once
// The first N of many paths in sorted order, kept in bounded memory, and their rendering as one
// result text. Shared by find and ls, which may meet millions of names but show a few hundred.
//
// Thread-safety: a SortedSample is not synchronised; guard it when several threads add.

#include <cstddef>
#include <string>
#include <vector>

namespace nib::tools {

class SortedSample {
 public:
  // Keeps the `limit` smallest names (byte order) of all that are added; limit >= 1.
  explicit SortedSample(std::size_t limit) : limit_(limit) {}

  // Counts `name` and keeps it if it may be among the smallest. Amortised O(1) (plus the
  // occasional trim); holds at most 2 x limit names.
  void add(std::string name);

  // Names added so far.
  std::size_t total() const { return total_; }

  // The min(limit, total) smallest names, sorted. Leaves the sample empty.
  std::vector<std::string> take_sorted();

 private:
  void trim();

  std::size_t limit_;
  std::size_t total_ = 0;
  std::vector<std::string> kept_;
};

// `lines` joined with '\n' (each line ends with one), stopping before the line that would take the
// text past `max_bytes`. Returns how many lines it holds.
std::size_t join_lines(const std::vector<std::string>& lines, std::size_t max_bytes,
                       std::string& text);

}  // namespace nib::tools
