#include "permissions/rule_check.hpp"

#include <algorithm>

namespace nib::permissions {
namespace {

int precedence(RuleList list) {
  switch (list) {
    case RuleList::kDeny:
      return 2;
    case RuleList::kAsk:
      return 1;
    case RuleList::kAllow:
      return 0;
  }
  return 0;
}

// Whether everything `inner` matches, `outer` matches too (a cheap, sure test: only the cases
// it can prove).
bool covers(const Rule& outer, const Rule& inner) {
  const bool same_calls = outer.family != Rule::Family::kNamed
                              ? outer.family == inner.family
                              : inner.family == Rule::Family::kNamed &&
                                    rule_names_call(outer, inner.tool, core::AccessKind::kChange);
  if (!same_calls) return false;
  // A deny or ask rule speaks for commands reaching at least as far as it names, an allow rule
  // for those reaching at most as far.
  if (is_bash_rule(outer) && outer.reach != inner.reach &&
      !(outer.origin.list != RuleList::kAllow && outer.reach < inner.reach)) {
    return false;
  }
  if (outer.form == Rule::Form::kAnyUse) return true;
  if (!is_bash_rule(outer) || !is_bash_rule(inner)) return outer.text == inner.text;
  const bool extends = outer.form == Rule::Form::kCommandPrefix;
  switch (inner.form) {
    case Rule::Form::kCommandExact:
      return rule_matches_command(outer, inner.pattern, {}, false);
    case Rule::Form::kCommandPrefix:
      return extends && rule_matches_command(outer, inner.pattern, {}, false);
    default:
      return outer.text == inner.text;
  }
}

}  // namespace

std::vector<RuleProblem> check_rules(const RuleSet& rules, const std::vector<NamedTool>& tools) {
  std::vector<RuleProblem> problems;
  for (const Rule& rule : rules.rules()) {
    if (rule.origin.file.empty()) continue;
    if (rule.form == Rule::Form::kUnmatchable) {
      problems.push_back({&rule, "never matches: nib cannot match \"(" + *rule.specifier +
                                     ")\" for " + rule.tool + "; write " + rule.tool + " alone"});
      continue;
    }
    const bool mcp = rule.tool.starts_with("mcp__");
    const bool known = mcp || std::any_of(tools.begin(), tools.end(), [&](const NamedTool& tool) {
                         return rule_names_call(rule, tool.name, tool.kind);
                       });
    if (!known) {
      problems.push_back({&rule, "never matches: no tool is named " + rule.tool});
      continue;
    }
    for (const Rule& other : rules.rules()) {
      if (&other == &rule || other.origin.file.empty()) continue;
      const int mine = precedence(rule.origin.list), theirs = precedence(other.origin.list);
      const bool earlier_same_list = mine == theirs && &other < &rule;
      if ((theirs > mine || earlier_same_list) && covers(other, rule)) {
        problems.push_back({&rule, std::string(theirs > mine ? "shadowed" : "redundant") + ": " +
                                       other.text + " (" + other.origin.describe() +
                                       ") always decides first"});
        break;
      }
    }
  }
  return problems;
}

}  // namespace nib::permissions
