#include "mcp/ring_log.hpp"

#include "util/utf8.hpp"

namespace nib::mcp {

// Every cut keeps whole characters: what is kept starts where a UTF-8 sequence starts.
void RingLog::append(std::string_view bytes) {
  std::lock_guard lock(mutex_);
  if (bytes.size() >= capacity_) {
    text_.assign(bytes.substr(util::utf8_suffix_start(bytes, capacity_)));
    truncated_ = true;
    return;
  }
  // Forgets in halves rather than byte by byte, so appending stays amortized O(1).
  if (text_.size() + bytes.size() > capacity_) {
    const std::size_t room = capacity_ / 2 > bytes.size() ? capacity_ / 2 - bytes.size() : 0;
    text_.erase(0, util::utf8_suffix_start(text_, room));
    truncated_ = true;
  }
  text_.append(bytes);
}

std::string RingLog::tail(std::size_t bytes) const {
  std::lock_guard lock(mutex_);
  if (text_.size() <= bytes) return text_;
  std::string_view kept = std::string_view(text_).substr(util::utf8_suffix_start(text_, bytes));
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
