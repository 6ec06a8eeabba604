#pragma once
// Turning the permission policy's verdicts into the run's gate: an allowed call runs, a refused
// one is blocked with who refused and why, and one that needs the user is put to them (the
// interactive mode) or refused because nobody can be asked (print mode: a gate never fails
// open), the refusal naming the rule that would allow it. "Always" remembers the rules the
// question offered (as edited by the user) for the session and saves them.
//
// Thread-safe: the gate runs on the loops' threads (subagents' included) at once.

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tool_call.hpp"
#include "permissions/permission_policy.hpp"

namespace nib::permissions {

// What the user is asked: may this call run?
struct ApprovalQuestion {
  std::string tool_call_id;
  std::string tool_name;
  nlohmann::json arguments;        // validated arguments, for the front end to present
  core::CallAccess access;         // what the call touches, as its tool resolved it
  std::string reason;              // why it asks ("the command asks for the network: ...")
  std::vector<std::string> rules;  // what "always" would save, one per simple command
  std::vector<std::string> parts;  // a bash command's simple commands, as split
  // What the call would change, from the tool itself (core::Tool::preview_change): the diff
  // of an edit or a write, or why it would fail. Worked out only when someone is asked.
  std::optional<core::ChangePreview> preview;
};

enum class ApprovalAnswer {
  kYes,          // run this call
  kNo,           // do not run it
  kAlways,       // run it, and remember its rules
  kInterrupted,  // the run was interrupted before the user answered
};

// The answer, and for kAlways the rules to remember (the question's, possibly edited; empty:
// the question's as they were).
struct ApprovalReply {
  ApprovalReply(ApprovalAnswer answer, std::vector<std::string> rules = {})  // NOLINT: implicit
      : answer(answer), rules(std::move(rules)) {}
  ApprovalAnswer answer;
  std::vector<std::string> rules;
  // For kNo: why, in the words of whoever declined (a program's canUseTool), for the model;
  // empty: the standard words.
  std::string message = {};
};

// Puts the question to the user and waits for the answer (or for `stop`: kInterrupted).
using AskUser = std::function<ApprovalReply(const ApprovalQuestion&, std::stop_token)>;

// Writes rules to the user's local settings (.nib/settings.local.json permissions.allow) and
// tells the user where they went, or why they could not be saved.
using RuleSaver = std::function<void(const std::vector<std::string>& rules)>;

class ApprovalPolicy {
 public:
  explicit ApprovalPolicy(PolicyOptions options);

  // The gate for a run: calls the policy asks about (a hook's "ask" among them,
  // GateRequest::hook_asks) go to `ask` (interactive mode) or, when `ask` is empty, are refused
  // (print mode). "Always" answers are saved with `save_rules` (nothing saved when empty).
  // `grants`: allow rules for this gate's run only (PermissionPolicy::assess). The policy must
  // outlive the gate.
  core::Gate gate(AskUser ask, RuleSaver save_rules = {},
                  std::shared_ptr<const RuleSet> grants = nullptr);

  PermissionPolicy& policy() { return policy_; }
  const PermissionPolicy& policy() const { return policy_; }

  // What the model is told about a call the user answered with `reply` (allowed: no block).
  core::GateDecision decision_for(const ApprovalQuestion& question, const ApprovalReply& reply,
                                  const RuleSaver& save_rules = {});

 private:
  core::GateDecision decide(const core::GateRequest& request, const AskUser& ask,
                            const RuleSaver& save_rules, const RuleSet* grants,
                            std::stop_token stop);
  bool remembered(const std::vector<std::string>& rules) const;

  PermissionPolicy policy_;
  mutable std::mutex mutex_;
  std::set<std::string> remembered_rules_;  // allowed by "always" (and by "yes" for a domain)
};

}  // namespace nib::permissions
