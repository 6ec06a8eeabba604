#include "permissions/approval_policy.hpp"

#include <algorithm>
#include <exception>

namespace nib::permissions {
namespace {

std::string quoted_list(const std::vector<std::string>& rules) {
  std::string text;
  for (const std::string& rule : rules) text += (text.empty() ? "\"" : ", \"") + rule + "\"";
  return text;
}

// The refusal when nobody can be asked: what was asked about and what would allow it.
core::GateDecision refusal_in_print_mode(const core::GateRequest& request,
                                         const Assessment& assessment) {
  std::string reason = "Not run: " + assessment.reason +
                       ", and nobody can be asked in print mode. Do not retry this call; do "
                       "without it, or tell the user what you would have run.";
  std::string allow = " The user can allow it with the rule " +
                      quoted_list(assessment.rules_to_save) +
                      " in permissions.allow of .nib/settings.local.json";
  if (assessment.source == "hook") {
    return {true, reason, "hook"};
  }
  if (assessment.source == "--ask") {
    allow = " The user can allow it by leaving " + request.name + " out of --ask";
  } else if (assessment.source == "ask mode") {
    allow += ", or with --permission-mode auto";
  }
  return {true, reason + allow + ".", assessment.source};
}

// What the call would change, as its tool says. A preview that throws is a fault of the
// preview, not a reason to refuse the call: the question says so and the user still decides.
std::optional<core::ChangePreview> preview_of(const core::GateRequest& request,
                                              std::stop_token stop) {
  if (request.tool == nullptr || request.args == nullptr) return std::nullopt;
  try {
    return request.tool->preview_change(
        *request.args, request.context != nullptr ? *request.context : core::ToolContext{},
        std::move(stop));
  } catch (const std::exception& e) {
    return core::ChangePreview{.summary = std::string("No preview: it failed (") + e.what() + ")."};
  }
}

}  // namespace

ApprovalPolicy::ApprovalPolicy(PolicyOptions options) : policy_(std::move(options)) {}

core::Gate ApprovalPolicy::gate(AskUser ask, RuleSaver save_rules,
                                std::shared_ptr<const RuleSet> grants) {
  return [this, ask = std::move(ask), save_rules = std::move(save_rules),
          grants = std::move(grants)](const core::GateRequest& request, std::stop_token stop) {
    return decide(request, ask, save_rules, grants.get(), std::move(stop));
  };
}

core::GateDecision ApprovalPolicy::decide(const core::GateRequest& request, const AskUser& ask,
                                          const RuleSaver& save_rules, const RuleSet* grants,
                                          std::stop_token stop) {
  const Assessment assessment = policy_.assess(request, grants);
  switch (assessment.verdict) {
    case CallVerdict::kAllow:
      return {};
    case CallVerdict::kDeny:
      return {true, "Not run: " + assessment.reason + ". Do not retry this call; do without it.",
              assessment.source};
    case CallVerdict::kAsk:
      break;
  }
  // A hook that asks wants the user asked each time.
  if (assessment.source != "hook" && remembered(assessment.rules_to_save)) return {};
  if (!ask) return refusal_in_print_mode(request, assessment);
  const ApprovalQuestion question{request.tool_call_id,
                                  request.name,
                                  request.args != nullptr ? *request.args : nlohmann::json(),
                                  request.access != nullptr ? *request.access : core::CallAccess{},
                                  assessment.reason,
                                  assessment.rules_to_save,
                                  assessment.parts,
                                  preview_of(request, stop)};
  return decision_for(question, ask(question, stop), save_rules);
}

bool ApprovalPolicy::remembered(const std::vector<std::string>& rules) const {
  if (rules.empty()) return false;
  const std::lock_guard lock(mutex_);
  return std::all_of(rules.begin(), rules.end(),
                     [&](const std::string& rule) { return remembered_rules_.contains(rule); });
}

core::GateDecision ApprovalPolicy::decision_for(const ApprovalQuestion& question,
                                                const ApprovalReply& reply,
                                                const RuleSaver& save_rules) {
  switch (reply.answer) {
    case ApprovalAnswer::kYes:
      if (question.access.kind == core::AccessKind::kNetwork) {
        // Ask mode asks once per domain: a "yes" answers for the domain.
        const std::lock_guard lock(mutex_);
        remembered_rules_.insert(question.rules.begin(), question.rules.end());
      }
      return {};
    case ApprovalAnswer::kAlways: {
      const std::vector<std::string>& rules = reply.rules.empty() ? question.rules : reply.rules;
      {
        const std::lock_guard lock(mutex_);
        remembered_rules_.insert(rules.begin(), rules.end());
        // The question's own rules too: an edited rule may not match them by text.
        remembered_rules_.insert(question.rules.begin(), question.rules.end());
      }
      if (save_rules) save_rules(rules);
      return {};
    }
    case ApprovalAnswer::kNo:
      if (!reply.message.empty()) return {true, "The call was declined: " + reply.message, "user"};
      return {true,
              "The user declined this call. Do not retry it; ask the user what to do instead.",
              "user"};
    case ApprovalAnswer::kInterrupted:
      break;
  }
  return {true, "The user interrupted the run before answering whether this call may run.", "user"};
}

}  // namespace nib::permissions
