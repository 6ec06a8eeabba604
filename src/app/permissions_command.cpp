#include "app/permissions_command.hpp"

#include "app/permission_rules.hpp"
#include "app/settings.hpp"
#include "permissions/read_only.hpp"
#include "permissions/rule_check.hpp"
#include "permissions/rule_set.hpp"
#include "tools/builtin.hpp"

namespace nib::app {
namespace {

constexpr const char* kUsage =
    "usage: nib permissions explain 'COMMAND'     how the rules decide a bash command\n"
    "       nib permissions explain TOOL 'JSON'   ... or any tool call\n"
    "       nib permissions check                 rules that never match or are shadowed";

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

int run_permissions_command(const std::vector<std::string>& args, const EnvLookup& env,
                            const std::filesystem::path& cwd, std::ostream& out,
                            std::ostream& err) {
  const bool explain =
      !args.empty() && args[0] == "explain" && (args.size() == 2 || args.size() == 3);
  const bool check = args.size() == 1 && args[0] == "check";
  if (!explain && !check) {
    err << kUsage << '\n';
    return 2;
  }
  const auto loaded = load_configuration(config_directories(env, cwd));
  if (!loaded.ok()) {
    err << loaded.error() << '\n';
    return 2;
  }
  const std::filesystem::path home = env("HOME").value_or("");
  auto rules = permissions::RuleSet::load(rule_sources(loaded.value(), home));
  if (!rules.ok()) {
    err << "nib: " << rules.error() << '\n';
    return 2;
  }
  if (check) {
    std::vector<std::string> tool_names = {"task"};
    for (const core::ToolPtr& tool : tools::builtin_tools()) tool_names.push_back(tool->name());
    const auto problems = permissions::check_rules(rules.value(), tool_names);
    for (const permissions::RuleProblem& problem : problems) {
      out << problem.rule->origin.describe() << ": " << problem.rule->text << ": "
          << problem.problem << '\n';
    }
    const std::size_t own = rules.value().rules().size() - permissions::default_rules().size();
    if (problems.empty())
      out << "no problems in " << own << (own == 1 ? " rule" : " rules") << '\n';
    return problems.empty() ? 0 : 1;
  }
  permissions::CallFacts call{"bash", nlohmann::json::object(), cwd, home};
  if (args.size() == 2) {
    call.arguments["command"] = args[1];
    out << "bash: " << args[1] << '\n';
  } else {
    call.tool = args[1];
    call.arguments = nlohmann::json::parse(args[2], nullptr, false);
    if (call.arguments.is_discarded() || !call.arguments.is_object()) {
      err << "nib: the arguments must be a JSON object, such as '{\"path\": \".env\"}'\n";
      return 2;
    }
    out << call.tool << ": " << call.arguments.dump() << '\n';
  }
  print_explanation(rules.value().decide(call), out);
  return 0;
}

}  // namespace nib::app
