#include "mcp/ring_log.hpp"

namespace nib::mcp {

void RingLog::append(std::string_view bytes) {
  std::lock_guard lock(mutex_);
  if (bytes.size() >= capacity_) {
    text_.assign(bytes.substr(bytes.size() - capacity_));
    truncated_ = true;
    return;
  }
  // Forgets in halves rather than byte by byte, so appending stays amortized O(1).
  if (text_.size() + bytes.size() > capacity_) {
    text_.erase(0, text_.size() + bytes.size() - capacity_ / 2);
    truncated_ = true;
  }
  text_.append(bytes);
}

std::string RingLog::tail(std::size_t bytes) const {
  std::lock_guard lock(mutex_);
  if (text_.size() <= bytes) return text_;
  std::string_view kept = std::string_view(text_).substr(text_.size() - bytes);
  if (const auto newline = kept.find('\n');
      newline != std::string_view::npos && newline + 1 < kept.size()) {
    kept.remove_prefix(newline + 1);
  }
  return std::string(kept);
}

bool RingLog::truncated() const {
  std::lock_guard lock(mutex_);
  return truncated_;
}

}  // namespace nib::mcp
