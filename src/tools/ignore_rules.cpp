#include "tools/ignore_rules.hpp"

#include <algorithm>

namespace nib::tools {
namespace {

// Sets `key` to the part of `name` after its last '.' (the index key of "*.ext" patterns);
// false when there is no '.'.
bool extension_key(std::string_view name, std::string_view& key) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return false;
  key = name.substr(dot + 1);
  return true;
}

std::string_view last_component(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

IgnoreRules IgnoreRules::parse(std::string_view text) {
  IgnoreRules parsed;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);

    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    // Trailing spaces go, except one escaped with a backslash (the glob reads "\ " as " ").
    while (line.ends_with(' ') && !line.ends_with("\\ ")) line.remove_suffix(1);
    Rule rule{Glob("")};
    if (line.starts_with('!')) {
      rule.negated = true;
      line.remove_prefix(1);
    }
    if (line.ends_with('/')) {
      rule.directory_only = true;
      while (line.ends_with('/')) line.remove_suffix(1);
    }
    // "**/name" means the same as "name": take the cheaper, indexable form.
    if (line.starts_with("**/") && line.find('/', 3) == std::string_view::npos) {
      line.remove_prefix(3);
    }
    rule.name_only = line.find('/') == std::string_view::npos;
    if (line.starts_with('/')) line.remove_prefix(1);
    if (line.empty()) continue;
    rule.glob = Glob(line);

    const std::size_t index = parsed.rules_.size();
    std::string_view key;
    if (rule.name_only && !rule.glob.literal().empty()) {
      parsed.by_name_[std::string(rule.glob.literal())].push_back(index);
    } else if (rule.name_only && extension_key(rule.glob.suffix(), key)) {
      parsed.by_extension_[std::string(key)].push_back(index);
    } else {
      parsed.others_.push_back(index);
    }
    parsed.rules_.push_back(std::move(rule));
  }
  return parsed;
}

bool IgnoreRules::matches(std::size_t index, std::string_view path, std::string_view name,
                          bool is_directory) const {
  const Rule& rule = rules_[index];
  if (rule.directory_only && !is_directory) return false;
  return rule.glob.match(rule.name_only ? name : path);
}

IgnoreVerdict IgnoreRules::match(std::string_view path, bool is_directory) const {
  if (rules_.empty()) return IgnoreVerdict::kNone;
  const std::string_view name = last_component(path);
  // The highest-numbered matching rule decides; each candidate list is ascending.
  std::size_t best = 0;
  bool found = false;
  const auto consider = [&](const std::vector<std::size_t>& candidates) {
    for (auto it = candidates.rbegin(); it != candidates.rend(); ++it) {
      if (found && *it < best) return;
      if (matches(*it, path, name, is_directory)) {
        best = *it;
        found = true;
        return;
      }
    }
  };
  if (!by_name_.empty()) {
    if (const auto it = by_name_.find(name); it != by_name_.end()) {
      consider(it->second);
    }
  }
  std::string_view key;
  if (!by_extension_.empty() && extension_key(name, key)) {
    if (const auto it = by_extension_.find(key); it != by_extension_.end()) {
      consider(it->second);
    }
  }
  consider(others_);
  if (!found) return IgnoreVerdict::kNone;
  return rules_[best].negated ? IgnoreVerdict::kKeep : IgnoreVerdict::kIgnore;
}

IgnoreVerdict ignore_verdict(const IgnoreLevel* level, std::string_view path, bool is_directory) {
  for (const auto member :
       {&IgnoreLevel::dot_ignore, &IgnoreLevel::gitignore, &IgnoreLevel::exclude}) {
    for (const IgnoreLevel* at = level; at != nullptr; at = at->parent.get()) {
      const IgnoreRules& rules = at->*member;
      if (rules.empty()) continue;
      const IgnoreVerdict verdict = rules.match(path.substr(at->prefix_length), is_directory);
      if (verdict != IgnoreVerdict::kNone) return verdict;
    }
  }
  return IgnoreVerdict::kNone;
}

}  // namespace nib::tools
