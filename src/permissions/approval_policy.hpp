#pragma once
// The one home of who needs the user's approval before a call runs, what an "always" answer
// remembers, and the words the model receives when a call is refused. Today the policy is the
// --ask list; the permission modes and rules grow here. Front ends only put the question they
// are handed to the user and report the answer; print mode, which has nobody to ask, refuses
// (a gate never fails open).
//
// Thread-safe: the gate runs on the loop's thread while the front end may read nothing of it.

#include <functional>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tool_call.hpp"

namespace nib::permissions {

// What the user is asked: may this call run?
struct ApprovalQuestion {
  std::string tool_call_id;
  std::string tool_name;
  nlohmann::json arguments;  // validated arguments, for the front end to present
};

enum class ApprovalAnswer {
  kYes,          // run this call
  kNo,           // do not run it
  kAlways,       // run it, and every later call to this tool in the session
  kInterrupted,  // the run was interrupted before the user answered
};

// Puts the question to the user and waits for the answer (or for `stop`: kInterrupted).
using AskUser = std::function<ApprovalAnswer(const ApprovalQuestion&, std::stop_token)>;

class ApprovalPolicy {
 public:
  // `ask_tools`: the tools whose calls need approval (--ask), or "all".
  explicit ApprovalPolicy(std::vector<std::string> ask_tools);

  // True when a call to `tool_name` must be approved first (not once the user said "always").
  bool needs_approval(const std::string& tool_name) const;

  // The gate for a run: calls that need approval — a listed tool's, or any call a hook asks
  // about (GateRequest::hook_asks) — go to `ask` (interactive mode) or, when `ask` is empty,
  // are refused because nobody can be asked (print mode). Empty when there is nobody to ask
  // and no tool is listed. The policy must outlive the gate.
  core::Gate gate(AskUser ask);

  // What the model is told about a call the user answered with `answer` (allowed: no block).
  core::GateDecision decision_for(const ApprovalQuestion& question, ApprovalAnswer answer);

 private:
  std::vector<std::string> ask_tools_;
  mutable std::mutex mutex_;
  std::set<std::string> always_allowed_;
};

}  // namespace nib::permissions
