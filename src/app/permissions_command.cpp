#include "app/permissions_command.hpp"

#include "app/run_guard.hpp"
#include "app/settings.hpp"
#include "core/tool_call.hpp"
#include "core/tool_registry.hpp"
#include "permissions/read_only.hpp"
#include "permissions/rule_check.hpp"
#include "permissions/rule_set.hpp"
#include "tools/builtin.hpp"
#include "util/json_text.hpp"

namespace nib::app {
namespace {

void print_explanation(const permissions::CallDecision& decided, std::ostream& out) {
  const permissions::ShellSplit& split = decided.split;
  if (!split.understood && !split.problem.empty()) {
    out << "not split: " << split.problem << "\n";
  }
  for (std::size_t i = 0; i < split.commands.size() && i < decided.parts.size(); ++i) {
    const permissions::SimpleCommand& part = split.commands[i];
    out << "  " << i + 1 << ". " << part.source;
    if (permissions::is_read_only(part)) out << "  (read-only)";
    out << "\n";
    if (part.text() != part.source) out << "     runs: " << part.text() << "\n";
    const permissions::Decision& decision = decided.parts[i];
    out << "     " << permissions::verdict_name(decision.verdict) << ": "
        << (decision.reason.empty() ? "no rule matches" : decision.reason) << "\n";
  }
  out << "decision: " << permissions::verdict_name(decided.decision.verdict);
  if (!decided.decision.reason.empty()) out << " (" << decided.decision.reason << ")";
  if (decided.decision.verdict == permissions::Verdict::kNone) {
    out << " (no rule decides: the permission mode does)";
  }
  out << "\n";
}

}  // namespace

int run_permissions_command(const PermissionsArgs& args, const CliOptions& flags,
                            const util::UserPlaces& places, const std::filesystem::path& cwd,
                            std::ostream& out, std::ostream& err) {
  const auto loaded = load_configuration(config_directories(places, cwd));
  if (!loaded.ok()) {
    err << loaded.error() << '\n';
    return 2;
  }
  // The guard a run would have: its rules, and bash confined as a run's would be, so that a
  // call is explained on what its tool says it touches.
  auto guard = make_guard(flags, loaded.value(), places, cwd, {});
  if (!guard.ok()) {
    err << guard.error() << '\n';
    return 2;
  }
  const permissions::RuleSet& rules = *guard.value()->rules();
  std::vector<core::ToolPtr> tools = tools::builtin_tools(guard.value()->tool_options());
  if (std::holds_alternative<PermissionsCheckArgs>(args)) {
    std::vector<permissions::NamedTool> named = {{"task", core::AccessKind::kDelegate},
                                                 {"skill", core::AccessKind::kNone}};
    for (const core::ToolPtr& tool : tools) named.push_back({tool->name(), tool->spec().access});
    const auto problems = permissions::check_rules(rules, named);
    for (const permissions::RuleProblem& problem : problems) {
      out << problem.rule->origin.describe() << ": " << problem.rule->text << ": "
          << problem.problem << '\n';
    }
    const std::size_t own = rules.rules().size() - permissions::default_rules().size();
    if (problems.empty())
      out << "no problems in " << own << (own == 1 ? " rule" : " rules") << '\n';
    return problems.empty() ? 0 : 1;
  }
  const auto& explain = std::get<PermissionsExplainArgs>(args);
  core::ToolCall call{"explain", "bash", ""};
  if (!explain.tool) {
    call.arguments = util::json_text({{"command", explain.call}});
    out << "bash: " << explain.call << '\n';
  } else {
    call.name = *explain.tool;
    call.arguments = explain.call;
    out << call.name << ": " << call.arguments << '\n';
  }
  auto registry = core::ToolRegistry::create(std::move(tools), {});
  if (!registry.ok()) {
    err << "nib: " << registry.error() << '\n';
    return 2;
  }
  auto prepared = core::prepare_tool_call(call, *registry.value(), {call.id, cwd});
  if (auto* refused = std::get_if<core::ToolResult>(&prepared)) {
    err << "nib: " << core::content_text(refused->content) << '\n';
    return 2;
  }
  const core::CallAccess& access = *std::get<core::PreparedCall>(prepared).access;
  for (const core::PathAccess& path : access.paths) {
    out << "  path: " << path.path.string()
        << (path.target != path.path ? " (reaching " + path.target.string() + ")" : "") << '\n';
  }
  print_explanation(rules.decide({call.name, access, cwd, places.home}), out);
  return 0;
}

}  // namespace nib::app
