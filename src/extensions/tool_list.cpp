#include "extensions/tool_list.hpp"

#include "util/blank_text.hpp"

namespace nib::extensions {

std::vector<ToolEntry> split_tool_list(std::string_view text) {
  std::vector<ToolEntry> entries;
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] == ',' || util::is_blank(text[pos])) {
      ++pos;
      continue;
    }
    const std::size_t name_start = pos;
    while (pos < text.size() && text[pos] != ',' && text[pos] != '(' &&
           !util::is_blank(text[pos])) {
      ++pos;
    }
    ToolEntry entry{std::string(text.substr(name_start, pos - name_start)), std::nullopt, ""};
    if (pos < text.size() && text[pos] == '(') {
      const std::size_t close = text.find(')', pos);
      const std::size_t end = close == std::string_view::npos ? text.size() : close;
      entry.specifier = std::string(util::trim_blanks(text.substr(pos + 1, end - pos - 1)));
      pos = close == std::string_view::npos ? text.size() : close + 1;
    }
    entry.written = std::string(text.substr(name_start, pos - name_start));
    if (!entry.name.empty()) entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace nib::extensions
