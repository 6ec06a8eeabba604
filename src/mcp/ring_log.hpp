#pragma once
// The last N bytes of a stream (a server's stderr): appending past the capacity forgets the
// oldest bytes, so memory stays bounded however much the server writes; what is kept starts
// with a whole UTF-8 character. Thread-safe.

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace nib::mcp {

class RingLog {
 public:
  explicit RingLog(std::size_t capacity) : capacity_(capacity) {}

  void append(std::string_view bytes);
  // The last `bytes` bytes kept (all when fewer), starting at a line when one starts in them.
  std::string tail(std::size_t bytes) const;
  // True once bytes were forgotten.
  bool truncated() const;

 private:
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::string text_;
  bool truncated_ = false;
};

}  // namespace nib::mcp
