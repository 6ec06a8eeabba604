#pragma once
// `nib permissions check`: rules that can never match, or that a rule of higher precedence
// always wins over (shadowed), so the rule does nothing. Pure; thread-safe.

#include <string>
#include <vector>

#include "permissions/rule_set.hpp"

namespace nib::permissions {

struct RuleProblem {
  const Rule* rule = nullptr;  // into the RuleSet checked
  std::string problem;         // "never matches: no tool is named Serach"
};

// The problems of `rules`' own rules (not the defaults). `tool_names`: the tools nib has
// (nib's names); MCP rules are not checked against it.
std::vector<RuleProblem> check_rules(const RuleSet& rules,
                                     const std::vector<std::string>& tool_names);

}  // namespace nib::permissions
