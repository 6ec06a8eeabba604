#include "extensions/plugin.hpp"

namespace nib::extensions {

std::string plugin_part_name(const Plugin& plugin, std::string_view name) {
  return plugin.name + ":" + std::string(name);
}

std::string expand_plugin_root(std::string_view text, const std::filesystem::path& root) {
  constexpr std::string_view kVariable = "${CLAUDE_PLUGIN_ROOT}";
  std::string expanded;
  std::size_t start = 0;
  for (std::size_t at = text.find(kVariable); at != std::string_view::npos;
       at = text.find(kVariable, start)) {
    expanded.append(text.substr(start, at - start));
    expanded += root.string();
    start = at + kVariable.size();
  }
  expanded.append(text.substr(start));
  return expanded;
}

}  // namespace nib::extensions
