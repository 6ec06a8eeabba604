#pragma once
// Splits a byte stream into lines ("\n", an optional "\r" before it dropped) of at most a given
// length: a longer line is dropped whole (its bytes are not kept while it goes on) and counted.
// Not thread-safe: one splitter belongs to one stream.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nib::mcp {

class LineSplitter {
 public:
  explicit LineSplitter(std::size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

  // The lines completed by `bytes`; empty lines are left out.
  std::vector<std::string> feed(std::string_view bytes);
  // Lines dropped for being longer than the limit, so far.
  std::size_t dropped() const { return dropped_; }

 private:
  const std::size_t max_line_bytes_;
  std::string line_;
  bool skipping_ = false;  // inside a line that outgrew the limit
  std::size_t dropped_ = 0;
};

}  // namespace nib::mcp
