#include "tools/tail_truncate.hpp"

#include <algorithm>

#include "util/utf8.hpp"

namespace nib::tools {

std::size_t count_lines(std::string_view text) {
  if (text.empty()) return 0;
  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  return text.back() == '\n' ? newlines : newlines + 1;
}

TailCut cut_tail(std::string_view text, std::size_t max_lines, std::size_t max_bytes) {
  if (text.size() <= max_bytes && count_lines(text) <= max_lines) {
    return {0, count_lines(text), false, false};
  }
  TailCut result{text.size(), 0, true, false};
  if (max_lines == 0 || max_bytes == 0) return result;
  // The newline that ends the text belongs to the last line, not before it.
  std::size_t search_end = text.back() == '\n' ? text.size() - 1 : text.size();
  while (result.lines_kept < max_lines && search_end > 0) {
    const std::size_t newline = text.rfind('\n', search_end - 1);
    const std::size_t line_start = newline == std::string_view::npos ? 0 : newline + 1;
    if (text.size() - line_start > max_bytes) break;
    result.start = line_start;
    ++result.lines_kept;
    if (line_start == 0) break;
    search_end = newline;
  }
  if (result.lines_kept == 0) {
    result.start = util::utf8_suffix_start(text, max_bytes);
    result.lines_kept = 1;
    result.partial_line = true;
  }
  result.cut = result.start > 0;
  return result;
}

}  // namespace nib::tools
