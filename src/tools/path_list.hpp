#pragma once
// The first N of many paths in sorted order, kept in bounded memory, and their rendering as one
// result text. Shared by find and ls, which may meet millions of names but show a few hundred.
//
// Thread-safety: a SortedSample is not synchronised; guard it when several threads add. The
// functions are pure.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nib::tools {

class SortedSample {
 public:
  // Keeps the `limit` smallest names (byte order) of all that are added, but never more than
  // one result can show (kMaxOutputLines); limit >= 1.
  explicit SortedSample(std::size_t limit);

  // Counts `name` and keeps it if it may be among the smallest. Amortised O(1) (plus the
  // occasional trim); holds at most 2 x limit names.
  void add(std::string name);

  // Names added so far.
  std::size_t total() const { return total_; }

  // The smallest names kept, sorted. Leaves the sample empty.
  std::vector<std::string> take_sorted();

 private:
  void trim();

  std::size_t limit_;
  std::size_t total_ = 0;
  std::vector<std::string> kept_;
};

// The first of `total` sorted entries, `lines`, as result text: one per line, within
// kMaxOutputLines and kMaxOutputBytes. When not all `total` fit, a note follows: "[Showing the
// first N of M <noun> (<what cut it>). ...]" that suggests a larger limit when `limit` cut the
// list, and `narrowing` (e.g. "narrow the pattern or the path") in any case.
std::string render_listing(const std::vector<std::string>& lines, std::size_t total,
                           std::size_t limit, std::string_view noun, std::string_view narrowing);

}  // namespace nib::tools
