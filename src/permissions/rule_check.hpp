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

// A tool nib has, by its name and what its calls do.
struct NamedTool {
  std::string name;
  core::AccessKind kind;
};

// The problems of `rules`' own rules (not the defaults). `tools`: the tools nib has; MCP rules
// are not checked against them.
std::vector<RuleProblem> check_rules(const RuleSet& rules, const std::vector<NamedTool>& tools);

}  // namespace nib::permissions
