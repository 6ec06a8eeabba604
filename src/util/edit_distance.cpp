#include "util/edit_distance.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace nib::util {

std::size_t bounded_edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t over = limit + 1;
  const std::size_t rows = a.size();
  const std::size_t columns = b.size();
  if ((rows > columns ? rows - columns : columns - rows) > limit) return over;
  // Three rows of the distance table (this one and the two before, for swaps); cells outside
  // the band |i - j| <= limit stay `over`, which no path through them can beat.
  std::vector<std::size_t> before_last(columns + 1, over);
  std::vector<std::size_t> last(columns + 1, over);
  std::vector<std::size_t> row(columns + 1, over);
  for (std::size_t j = 0; j <= std::min(columns, limit); ++j) last[j] = j;
  for (std::size_t i = 1; i <= rows; ++i) {
    std::fill(row.begin(), row.end(), over);
    if (i <= limit) row[0] = i;
    std::size_t best = row[0];
    const std::size_t first = i > limit ? i - limit : 1;
    const std::size_t end = std::min(columns, i + limit);
    for (std::size_t j = first; j <= end; ++j) {
      const std::size_t substitution = last[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      std::size_t cell = std::min({last[j] + 1, row[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cell = std::min(cell, before_last[j - 2] + 1);
      }
      row[j] = std::min(cell, over);
      best = std::min(best, row[j]);
    }
    if (best > limit) return over;  // every alignment already costs too much
    std::swap(before_last, last);
    std::swap(last, row);
  }
  return std::min(last[columns], over);
}

namespace {

std::string ascii_lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates,
                         std::size_t limit) {
  const std::string wanted = ascii_lowercase(name);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = bounded_edit_distance(wanted, ascii_lowercase(candidate), limit);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace nib::util
