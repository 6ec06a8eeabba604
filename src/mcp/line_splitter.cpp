#include "mcp/line_splitter.hpp"

namespace nib::mcp {

std::vector<std::string> LineSplitter::feed(std::string_view bytes) {
  std::vector<std::string> lines;
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, newline);
    if (!skipping_) {
      if (line_.size() + piece.size() > max_line_bytes_) {
        skipping_ = true;
        ++dropped_;
        line_.clear();
        line_.shrink_to_fit();
      } else {
        line_.append(piece);
      }
    }
    if (newline == std::string_view::npos) break;
    bytes.remove_prefix(newline + 1);
    if (!skipping_) {
      if (!line_.empty() && line_.back() == '\r') line_.pop_back();
      if (!line_.empty()) lines.push_back(std::move(line_));
    }
    line_.clear();
    skipping_ = false;
  }
  return lines;
}

}  // namespace nib::mcp
