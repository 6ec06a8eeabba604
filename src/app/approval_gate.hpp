#pragma once
// The gate for --ask: calls to the named tools (or to every tool, with "all") need the user's
// approval before they run. Interactive mode asks; print mode has nobody to ask and refuses,
// since a gate never fails open. Pure wiring; thread-safe if `ask_user` is.

#include <string>
#include <vector>

#include "core/tool_call.hpp"

namespace nib::app {

// True when `ask` (the --ask list) names `tool_name` or "all".
bool needs_approval(const std::vector<std::string>& ask, const std::string& tool_name);

// A gate that lets calls through unless they need approval, and then decides by `ask_user`.
// An empty gate when `ask` is empty.
core::Gate approval_gate(std::vector<std::string> ask, core::Gate ask_user);

// The decision print mode gives a call that needs approval.
core::GateDecision refuse_without_user(const core::GateRequest& request, std::stop_token);

}  // namespace nib::app
