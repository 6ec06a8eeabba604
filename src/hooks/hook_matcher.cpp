#include "hooks/hook_matcher.hpp"

#include <re2/re2.h>

#include <algorithm>

#include "core/claude_tool_names.hpp"

namespace nib::hooks {
namespace {

// Claude Code treats a matcher of letters, digits, "_" and "|" as a list of exact names.
bool is_word_list(std::string_view pattern) {
  return std::all_of(pattern.begin(), pattern.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '|';
  });
}

}  // namespace

util::Result<HookMatcher> HookMatcher::compile(const std::string& pattern) {
  HookMatcher matcher;
  matcher.pattern_ = pattern;
  if (pattern.empty() || pattern == "*") return matcher;
  if (is_word_list(pattern)) {
    std::size_t start = 0;
    while (start <= pattern.size()) {
      const std::size_t bar = std::min(pattern.find('|', start), pattern.size());
      if (bar > start) matcher.words_.push_back(pattern.substr(start, bar - start));
      start = bar + 1;
    }
    return matcher;
  }
  RE2::Options options;
  options.set_log_errors(false);
  auto regex = std::make_shared<re2::RE2>(pattern, options);
  if (!regex->ok()) {
    return util::Result<HookMatcher>::failure("not a valid regular expression (" + regex->error() +
                                              ")");
  }
  matcher.regex_ = std::move(regex);
  return matcher;
}

bool HookMatcher::matches(std::string_view name) const {
  if (!words_.empty()) return std::find(words_.begin(), words_.end(), name) != words_.end();
  if (regex_) return RE2::PartialMatch(name, *regex_);
  return true;
}

bool HookMatcher::matches_tool(std::string_view nib_name) const {
  if (matches(nib_name)) return true;
  const auto covering = core::claude_tools_covering(nib_name);
  return std::any_of(covering.begin(), covering.end(),
                     [this](std::string_view claude) { return matches(claude); });
}

}  // namespace nib::hooks
