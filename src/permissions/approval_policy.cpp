#include "permissions/approval_policy.hpp"

#include <algorithm>

namespace nib::permissions {

ApprovalPolicy::ApprovalPolicy(std::vector<std::string> ask_tools)
    : ask_tools_(std::move(ask_tools)) {}

bool ApprovalPolicy::needs_approval(const std::string& tool_name) const {
  const bool listed =
      std::any_of(ask_tools_.begin(), ask_tools_.end(),
                  [&](const std::string& name) { return name == tool_name || name == "all"; });
  if (!listed) return false;
  const std::lock_guard lock(mutex_);
  return !always_allowed_.contains(tool_name);
}

core::Gate ApprovalPolicy::gate(AskUser ask) {
  // Where someone can be asked, a hook's "ask" (GateRequest::hook_asks) needs the gate too.
  if (ask_tools_.empty() && !ask) return {};
  return [this, ask = std::move(ask)](const core::GateRequest& request, std::stop_token stop) {
    const bool hook_asks = !request.hook_asks.empty();
    if (!hook_asks && !needs_approval(request.name)) return core::GateDecision{};
    const ApprovalQuestion question{request.tool_call_id, request.name,
                                    request.args != nullptr ? *request.args : nlohmann::json()};
    if (!ask) {
      const std::string why =
          hook_asks ? "a hook asks for the user's approval of this call (" + request.hook_asks + ")"
                    : "calls to " + request.name + " need the user's approval (--ask)";
      return core::GateDecision{true,
                                "Not run: " + why +
                                    ", and nobody can be asked in print mode. Do without this "
                                    "tool, or tell the user what you would have run.",
                                "user"};
    }
    return decision_for(question, ask(question, stop));
  };
}

core::GateDecision ApprovalPolicy::decision_for(const ApprovalQuestion& question,
                                                ApprovalAnswer answer) {
  switch (answer) {
    case ApprovalAnswer::kYes:
      return {};
    case ApprovalAnswer::kAlways: {
      const std::lock_guard lock(mutex_);
      always_allowed_.insert(question.tool_name);
      return {};
    }
    case ApprovalAnswer::kNo:
      return {true,
              "The user declined this call. Do not retry it; ask the user what to do instead.",
              "user"};
    case ApprovalAnswer::kInterrupted:
      break;
  }
  return {true, "The user interrupted the run before answering whether this call may run.", "user"};
}

}  // namespace nib::permissions
