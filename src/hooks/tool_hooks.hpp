#pragma once
// PreToolUse and PostToolUse hooks as the core's seams, so every call of every run (subagents'
// too) goes through them:
// - pre_tool_use_check is the check the core asks before the gate (core::PreToolCheck). A
//   hook's deny, exit 2 or failure blocks the call (source "hook <command>"; a failure's reason
//   says that the hook failed and how). "allow" lets the call run without the gate asking
//   anyone (its deny rules still hold). "ask" makes the gate ask the user even where its rules
//   allow the call (with nobody to ask, the call is refused). updatedInput becomes the
//   verdict's updated_args: the core validates them against the tool's schema and judges the
//   call again on them before the gate. additionalContext is added to the result.
//   "continue": false blocks the call with the hook's stopReason.
// - post_tool_use_hooks runs after each call that ran: a block's reason (or a failure) and
//   additionalContext are added to the result the model receives (the call has already run).
// Both give hooks the call as Claude Code does (hook_input.hpp), with its paths as the tool
// resolved them (core::CallAccess).
// Thread-safe as HookSet is.

#include <memory>

#include "core/tool_call.hpp"
#include "hooks/hook_set.hpp"

namespace nib::hooks {

core::PreToolCheck pre_tool_use_check(std::shared_ptr<const HookSet> hooks);

core::AfterTool post_tool_use_hooks(std::shared_ptr<const HookSet> hooks);

}  // namespace nib::hooks
