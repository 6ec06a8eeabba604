#pragma once
// A hook group's "matcher", as Claude Code reads it: empty or "*" matches everything; a word or
// a list of words separated by "|" ("Edit|Write") matches those names exactly; anything else is
// a regular expression searched for in the name ("mcp__memory__.*", "Notebook.*"). Regular
// expressions are RE2's: linear time, so a settings file cannot hang nib. Case-sensitive.
// Immutable once compiled; thread-safe.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace re2 {
class RE2;
}

namespace nib::hooks {

class HookMatcher {
 public:
  // A matcher that matches everything.
  HookMatcher() = default;
  // Fails with RE2's message for a pattern that is not a valid regular expression.
  static util::Result<HookMatcher> compile(const std::string& pattern);

  bool matches(std::string_view name) const;
  // For tool events: the tool matches under nib's name or any of Claude Code's names for it
  // ("edit" matches "Edit", "MultiEdit" and "edit").
  bool matches_tool(std::string_view nib_name) const;
  const std::string& pattern() const { return pattern_; }

 private:
  std::string pattern_;
  std::vector<std::string> words_;   // exact names, when the pattern is a word list
  std::shared_ptr<re2::RE2> regex_;  // otherwise, unless it matches everything
};

}  // namespace nib::hooks
