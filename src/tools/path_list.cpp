#include "tools/path_list.hpp"

#include <algorithm>

#include "tools/limits.hpp"
#include "util/ascii.hpp"
#include "util/byte_size.hpp"

namespace nib::tools {

SortedSample::SortedSample(std::size_t limit)
    : limit_(std::clamp<std::size_t>(limit, 1, process::kMaxOutputLines)) {}

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

std::string render_listing(const std::vector<std::string>& lines, std::size_t total,
                           std::size_t limit, std::string_view noun, std::string_view narrowing) {
  std::string text;
  std::size_t shown = 0;
  for (const auto& line : lines) {
    if (shown == process::kMaxOutputLines ||
        text.size() + line.size() + 1 > process::kMaxOutputBytes)
      break;
    text += line;
    text += '\n';
    ++shown;
  }
  if (shown >= total) return text;
  std::string cause;
  if (shown < lines.size()) {
    cause = util::format_byte_size(process::kMaxOutputBytes) + " output limit";
  } else if (limit <= process::kMaxOutputLines) {
    cause = "limit=" + std::to_string(limit);
  } else {
    cause = std::to_string(process::kMaxOutputLines) + "-line output limit";
  }
  std::string advice(narrowing);
  if (shown == lines.size() && limit < process::kMaxOutputLines) {
    advice = "Use a larger limit, or " + advice;
  } else {
    advice = util::ascii_capitalized(std::move(advice));
  }
  return text + "\n[Showing the first " + std::to_string(shown) + " of " + std::to_string(total) +
         " " + std::string(noun) + " (" + cause + "). " + advice + ".]\n";
}

}  // namespace nib::tools
