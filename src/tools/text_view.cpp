#include "tools/text_view.hpp"

#include <algorithm>

namespace nib::tools {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

}  // namespace

TextView::TextView(std::string_view original) {
  if (original.starts_with(kBom)) {
    has_bom_ = true;
    original.remove_prefix(kBom.size());
  }
  text_.reserve(original.size());
  for (std::size_t pos = 0; pos < original.size(); ++pos) {
    if (original[pos] == '\r' && pos + 1 < original.size() && original[pos + 1] == '\n') {
      crlf_newlines_.push_back(text_.size());
      continue;
    }
    text_ += original[pos];
  }
}

std::size_t TextView::original_offset(std::size_t offset) const {
  const auto dropped = std::lower_bound(crlf_newlines_.begin(), crlf_newlines_.end(), offset) -
                       crlf_newlines_.begin();
  return offset + static_cast<std::size_t>(dropped) + (has_bom_ ? kBom.size() : 0);
}

std::string_view TextView::ending_at(std::size_t offset) const {
  std::size_t newline = text_.find('\n', std::min(offset, text_.size()));
  if (newline == std::string::npos) newline = text_.rfind('\n');
  if (newline == std::string::npos) return "\n";
  return std::binary_search(crlf_newlines_.begin(), crlf_newlines_.end(), newline) ? "\r\n" : "\n";
}

std::string TextView::apply(std::string_view original,
                            const std::vector<ViewReplacement>& replacements) const {
  std::string result;
  result.reserve(original.size());
  std::size_t copied = 0;  // original bytes before this are in `result`
  for (const auto& replacement : replacements) {
    const std::string_view old_text(text_.data() + replacement.begin,
                                    replacement.end - replacement.begin);
    const std::string_view new_text = replacement.text;
    const std::size_t shorter = std::min(old_text.size(), new_text.size());
    std::size_t prefix = 0;
    while (prefix < shorter && old_text[prefix] == new_text[prefix]) ++prefix;
    std::size_t suffix = 0;
    while (suffix < shorter - prefix &&
           old_text[old_text.size() - 1 - suffix] == new_text[new_text.size() - 1 - suffix]) {
      ++suffix;
    }
    const std::size_t begin = replacement.begin + prefix;
    const std::size_t end = replacement.end - suffix;
    const std::string_view inserted = new_text.substr(prefix, new_text.size() - prefix - suffix);

    const std::size_t original_begin = original_offset(begin);
    result.append(original, copied, original_begin - copied);
    const std::string_view ending = ending_at(begin);
    for (const char c : inserted) {
      if (c == '\n') {
        result += ending;
      } else {
        result += c;
      }
    }
    copied = original_offset(end);
  }
  result.append(original, copied);
  return result;
}

std::string without_carriage_returns(std::string_view text) {
  std::string result;
  result.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    if (text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n') continue;
    result += text[pos];
  }
  return result;
}

}  // namespace nib::tools
