#pragma once
// The approval question as ACP asks it (session/request_permission): the call as a tool_call,
// with the change it would make, and the four answers (allow once, allow always, reject once,
// reject always); and the client's answer as the policy's (a cancelled request is a refusal).
// Pure functions.

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/tool_registry.hpp"
#include "permissions/approval_policy.hpp"

namespace nib::acp {

// The params of session/request_permission for `question` in session `session_id`.
nlohmann::json permission_request(const std::string& session_id,
                                  const permissions::ApprovalQuestion& question,
                                  const core::ToolRegistry& tools);

struct PermissionAnswer {
  permissions::ApprovalAnswer answer = permissions::ApprovalAnswer::kNo;
  bool always = false;  // allow_always or reject_always: the question's rules are remembered
};

// What the client's `result` of session/request_permission answers; anything it cannot be read
// as (and a cancelled request) is a refusal.
PermissionAnswer permission_answer(const nlohmann::json& result);

}  // namespace nib::acp
