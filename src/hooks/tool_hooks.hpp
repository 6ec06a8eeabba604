#pragma once
// PreToolUse and PostToolUse hooks as the core's seams, so every call of every run (subagents'
// too) goes through them:
// - with_pre_tool_use_hooks wraps the gate. A hook's deny, exit 2 or failure blocks the call
//   (source "hook <command>"; a failure's reason says that the hook failed and how). "allow"
//   lets the call run without asking `inner`. "ask" hands `inner` the request with
//   GateRequest::hook_asks set to the hook's reason: it must ask the user even where its rules
//   allow the call (no inner gate: the call is refused, as nobody can be asked). updatedInput
//   becomes GateDecision::updated_args (validated against the tool's schema by the core), and
//   `inner` judges the updated arguments. additionalContext is added to the result.
//   "continue": false blocks the call with the hook's stopReason.
// - post_tool_use_hooks runs after each call that ran: a block's reason (or a failure) and
//   additionalContext are added to the result the model receives (the call has already run).
// Thread-safe as HookSet is.

#include <memory>

#include "core/tool_call.hpp"
#include "hooks/hook_set.hpp"

namespace nib::hooks {

core::Gate with_pre_tool_use_hooks(std::shared_ptr<const HookSet> hooks, core::Gate inner);

core::AfterTool post_tool_use_hooks(std::shared_ptr<const HookSet> hooks);

}  // namespace nib::hooks
