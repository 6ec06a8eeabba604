#include "tools/path_list.hpp"

#include <algorithm>

namespace nib::tools {

void SortedSample::add(std::string name) {
  ++total_;
  kept_.push_back(std::move(name));
  if (kept_.size() >= 2 * limit_) trim();
}

void SortedSample::trim() {
  if (kept_.size() <= limit_) return;
  std::nth_element(kept_.begin(), kept_.begin() + static_cast<std::ptrdiff_t>(limit_), kept_.end());
  kept_.resize(limit_);
}

std::vector<std::string> SortedSample::take_sorted() {
  trim();
  std::sort(kept_.begin(), kept_.end());
  std::vector<std::string> sorted = std::move(kept_);
  kept_.clear();
  return sorted;
}

std::size_t join_lines(const std::vector<std::string>& lines, std::size_t max_bytes,
                       std::string& text) {
  std::size_t count = 0;
  for (const auto& line : lines) {
    if (text.size() + line.size() + 1 > max_bytes) break;
    text += line;
    text += '\n';
    ++count;
  }
  return count;
}

}  // namespace nib::tools
