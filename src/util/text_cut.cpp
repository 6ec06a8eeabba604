#include "util/text_cut.hpp"

#include "util/byte_size.hpp"
#include "util/utf8.hpp"

namespace nib::util {

std::string cut_marker(std::uint64_t left_out_bytes, std::string_view hint) {
  std::string marker =
      "… [" + format_count(left_out_bytes) + (left_out_bytes == 1 ? " more byte" : " more bytes");
  if (!hint.empty()) marker.append("; ").append(hint);
  return marker + "]";
}

std::string cut_text(std::string_view text, std::size_t max_bytes, std::string_view hint) {
  if (text.size() <= max_bytes) return std::string(text);
  const std::size_t kept = utf8_prefix_length(text, max_bytes);
  return std::string(text.substr(0, kept)) + cut_marker(text.size() - kept, hint);
}

}  // namespace nib::util
