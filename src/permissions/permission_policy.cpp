#include "permissions/permission_policy.hpp"

#include <algorithm>

#include "permissions/read_only.hpp"
#include "permissions/rule_suggestion.hpp"
#include "util/path_within.hpp"

namespace nib::permissions {
namespace {

namespace fs = std::filesystem;
using core::AccessKind;
using core::Confinement;

const core::CallAccess& access_of(const core::GateRequest& request) {
  static const core::CallAccess kNothing;
  return request.access != nullptr ? *request.access : kNothing;
}

// `path` with the links in its existing part resolved, for comparing with paths that are.
fs::path canonical_or_same(const fs::path& path) {
  std::error_code error;
  const fs::path real = fs::weakly_canonical(path, error);
  return error ? path.lexically_normal() : real.lexically_normal();
}

// The directory a rule for a change of `path` names: ./dir/** inside the tree, //dir/** outside.
std::string edit_rule(const fs::path& path, const fs::path& tree) {
  const fs::path directory = path.parent_path();
  if (util::is_within(tree, directory.lexically_normal())) {
    const fs::path relative = directory.lexically_relative(tree);
    return "Edit(./" + (relative == "." ? "" : relative.string() + "/") + "**)";
  }
  return "Edit(/" + directory.string() + "/**)";
}

// The rules "always" saves: the closest thing to the call that still covers its repetitions;
// for a command one per simple command, saying how far it may reach beyond the sandbox (none
// when one of them cannot be generalised: the user answers for this call only).
std::vector<std::string> rules_for(const core::GateRequest& request, const core::CallAccess& access,
                                   const CallDecision& ruled, const fs::path& tree) {
  switch (access.kind) {
    case AccessKind::kExecute: {
      std::vector<std::string> rules;
      if (!ruled.split.understood || !access.command) return rules;
      const std::string_view reach = reach_prefix(reach_of(*access.command));
      for (const SimpleCommand& command : ruled.split.commands) {
        if (command.runs_nothing()) continue;
        auto rule = generalise(command);
        if (!rule) return {};
        rule->insert(rule->find('(') + 1, reach);
        if (std::find(rules.begin(), rules.end(), *rule) == rules.end()) rules.push_back(*rule);
      }
      return rules;
    }
    case AccessKind::kNetwork:
      return {"WebFetch(domain:" + access.host + ")"};
    case AccessKind::kWrite: {
      std::vector<std::string> rules;
      for (const core::PathAccess& touched : access.paths) {
        for (const fs::path& path : {touched.path, touched.target}) {
          const std::string rule = edit_rule(path, tree);
          if (std::find(rules.begin(), rules.end(), rule) == rules.end()) rules.push_back(rule);
        }
      }
      return rules;
    }
    default:
      return {request.name};
  }
}

bool listed(const std::vector<std::string>& tools, const std::string& name) {
  return std::any_of(tools.begin(), tools.end(),
                     [&](const std::string& tool) { return tool == name || tool == "all"; });
}

const RuleSet& built_in_rules() {
  static const RuleSet rules;
  return rules;
}

// A command whose every part changes nothing (read-only mode runs only those).
bool read_only_command(const CallDecision& ruled) {
  if (!ruled.split.understood || ruled.split.commands.empty()) return false;
  return std::all_of(ruled.split.commands.begin(), ruled.split.commands.end(),
                     [](const SimpleCommand& command) { return is_read_only(command); });
}

}  // namespace

PermissionPolicy::PermissionPolicy(PolicyOptions options)
    : options_(std::move(options)), mode_(options_.mode) {}

Assessment PermissionPolicy::assess(const core::GateRequest& request, const RuleSet* grants) const {
  const core::CallAccess& access = access_of(request);
  const RuleSet& rules = options_.rules ? *options_.rules : built_in_rules();
  const CallFacts facts{request.name, access, options_.working_tree, options_.home};
  const CallDecision ruled = rules.decide(facts);
  const Verdict rule = ruled.decision.verdict;
  if (rule == Verdict::kDeny) {
    return {CallVerdict::kDeny, ruled.decision.reason, "permission rule", {}, {}};
  }
  // A hook's allow spares every question; deny rules still hold.
  if (request.hook_allows) return {};
  if (!request.hook_asks.empty()) {
    return asks(request, access, ruled,
                "a hook asks for the user's approval of this call (" + request.hook_asks + ")",
                "hook");
  }
  if (listed(options_.ask_tools, request.name)) {
    return asks(request, access, ruled, "--ask names " + request.name, "--ask");
  }
  const PermissionMode mode = this->mode();
  if (mode == PermissionMode::kYolo) return {};
  if (rule == Verdict::kAsk) {
    return asks(request, access, ruled, ruled.decision.reason, "permission rule");
  }
  Assessment decided = by_mode(request, access, ruled, mode);
  if (decided.verdict != CallVerdict::kAsk) return decided;
  // An allow rule for a command counts only as far as it says the command may reach, which the
  // rules have already weighed (rule_set.hpp).
  if (rule == Verdict::kAllow) return {};
  // A grant spares only the question ask mode puts before every call: what it names runs as it
  // would in auto mode, and what auto mode asks about (leaving the sandbox or the tree, the
  // network, a protected path, an MCP tool) is still asked. A grant comes with a command file,
  // which a repository may have written.
  if (grants != nullptr && grants->decide(facts).decision.verdict == Verdict::kAllow &&
      by_mode(request, access, ruled, PermissionMode::kAuto).verdict == CallVerdict::kAllow) {
    return {};
  }
  return decided;
}

Assessment PermissionPolicy::by_mode(const core::GateRequest& request,
                                     const core::CallAccess& access, const CallDecision& ruled,
                                     PermissionMode mode) const {
  switch (access.kind) {
    case AccessKind::kExecute:
      return command_by_mode(request, access, ruled, mode);
    case AccessKind::kWrite:
      return change_by_mode(request, access, mode);
    case AccessKind::kExternal:
      // It acts outside the sandbox with its server's rights, and its readOnlyHint is the
      // server's word, not nib's: only a person's answer or a rule lets it run.
      return asks(request, access, ruled,
                  "MCP tools act outside the sandbox, with their server's rights, and " +
                      std::string(mode_name(mode)) + " mode asks before each",
                  std::string(mode_name(mode)) + " mode");
    case AccessKind::kNetwork:
      if (mode == PermissionMode::kAsk) {
        return asks(request, access, ruled,
                    request.name + " asks before each new domain in ask mode", "ask mode");
      }
      return {};
    case AccessKind::kNone:
    case AccessKind::kRead:
    case AccessKind::kDelegate:
      // A subagent's own calls pass this policy one by one, so handing work over needs none.
      return {};
    case AccessKind::kChange:
      break;
  }
  switch (mode) {
    case PermissionMode::kReadOnly:
      return {CallVerdict::kDeny,
              request.name +
                  " may change something, and read-only mode runs only calls that "
                  "change nothing",
              "read-only mode",
              {}};
    case PermissionMode::kAsk:
      return asks(request, access, ruled, request.name + " calls ask in ask mode", "ask mode");
    default:
      return {};
  }
}

Assessment PermissionPolicy::command_by_mode(const core::GateRequest& request,
                                             const core::CallAccess& access,
                                             const CallDecision& ruled, PermissionMode mode) const {
  if (!access.command) return asks(request, access, ruled, "the command is not known", "nib");
  const core::CommandAccess& command = *access.command;
  const std::string because =
      command.justification.empty() ? "" : " (\"" + command.justification + "\")";
  switch (mode) {
    case PermissionMode::kReadOnly:
      if (reach_of(command) == Reach::kSandbox && read_only_command(ruled)) return {};
      return {CallVerdict::kDeny,
              "read-only mode runs only commands that change nothing (ls, cat, grep, git log, "
              "git status, ...), and this one may change something",
              "read-only mode",
              {}};
    case PermissionMode::kAsk:
      return asks(request, access, ruled, request.name + " calls ask in ask mode", "ask mode");
    default:
      break;
  }
  switch (command.confinement) {
    case Confinement::kSandboxed:
    case Confinement::kUnconfinedByUser:  // the user chose: nothing to ask
      return {};
    case Confinement::kSandboxedNetwork:
      return asks(request, access, ruled, "the command asks for the network" + because,
                  "auto mode");
    case Confinement::kUnconfinedAsked:
      return asks(request, access, ruled, "the command asks to run outside the sandbox" + because,
                  "auto mode");
    case Confinement::kUnconfinedExcluded:
      return asks(request, access, ruled,
                  "settings run this command outside the sandbox (sandbox.excludedCommands)",
                  "auto mode");
    case Confinement::kUnconfinedUnavailable:
      break;
  }
  return asks(
      request, access, ruled,
      command.unavailable.empty() ? "commands cannot run in the sandbox" : command.unavailable,
      "auto mode");
}

Assessment PermissionPolicy::change_by_mode(const core::GateRequest& request,
                                            const core::CallAccess& access,
                                            PermissionMode mode) const {
  const CallDecision ruled;  // rules about paths were applied before the mode
  switch (mode) {
    case PermissionMode::kReadOnly:
      return {CallVerdict::kDeny, "read-only mode changes no files", "read-only mode", {}, {}};
    case PermissionMode::kAsk:
      return asks(request, access, ruled, request.name + " calls ask in ask mode", "ask mode");
    default:
      break;
  }
  const fs::path& tree = options_.working_tree;
  const fs::path real_tree = canonical_or_same(tree);
  for (const core::PathAccess& touched : access.paths) {
    const fs::path path = touched.path.lexically_normal();
    const bool path_inside = util::is_within(tree, path) || util::is_within(real_tree, path);
    const bool target_inside = util::is_within(real_tree, canonical_or_same(touched.target));
    if (!path_inside || !target_inside) {
      const std::string where =
          touched.target == touched.path || !path_inside
              ? touched.path.string()
              : touched.path.string() + " (a link to " + touched.target.string() + ")";
      return asks(request, access, ruled, where + " is outside the working tree " + tree.string(),
                  "auto mode");
    }
    if (!options_.protection) continue;
    for (const fs::path& path : {touched.path, touched.target}) {
      if (const auto why = options_.protection(path)) {
        return asks(request, access, ruled, path.string() + " is protected: " + *why, "auto mode");
      }
    }
  }
  return {};
}

Assessment PermissionPolicy::asks(const core::GateRequest& request, const core::CallAccess& access,
                                  const CallDecision& ruled, std::string reason,
                                  std::string source) const {
  std::vector<std::string> parts;
  for (const SimpleCommand& command : ruled.split.commands) parts.push_back(command.text());
  return {CallVerdict::kAsk, std::move(reason), std::move(source),
          rules_for(request, access, ruled, options_.working_tree), std::move(parts)};
}

}  // namespace nib::permissions
