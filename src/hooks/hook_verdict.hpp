#pragma once
// What one hook run says, read as Claude Code reads it:
// - exit 2: a block, its stderr the reason (for PreToolUse: the call does not run; Stop: the
//   model goes on; UserPromptSubmit: the prompt is refused).
// - exit 0: stdout may be a JSON object: "continue": false (stop the run, "stopReason"),
//   "systemMessage" (a warning for the user), "suppressOutput", and per event
//   hookSpecificOutput.permissionDecision "allow" | "deny" | "ask" with
//   permissionDecisionReason, updatedInput and additionalContext (PreToolUse; the older
//   "decision": "approve" | "block" with "reason" too), or "decision": "block" with "reason"
//   (PostToolUse, UserPromptSubmit, Stop, SubagentStop) and hookSpecificOutput.additionalContext
//   (PostToolUse, UserPromptSubmit, SessionStart).
// - Plain text on stdout (not starting with "{" or "["): context for UserPromptSubmit and
//   SessionStart, as in Claude Code; ignored for the other events, as there.
// - Failures — nib's choice, stricter than Claude Code's, which ignores them: any other exit
//   status, a signal, the timeout, a hook that cannot be started, output that looks like JSON
//   but is not a valid object of the fields above, or more output than nib keeps. For events
//   that can block (hook_config.hpp can_block), a failure blocks unless the hook has
//   "onFailure": "allow"; the reason says the hook failed and how.
// Pure; thread-safe.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "hooks/hook_config.hpp"
#include "hooks/hook_runner.hpp"

namespace nib::hooks {

struct HookVerdict {
  enum class Kind {
    kNone,    // no decision: the call, prompt or stop goes on as it would have
    kAllow,   // PreToolUse "allow": the call runs without further checks
    kAsk,     // PreToolUse "ask": the user must approve the call
    kBlock,   // a deliberate block or deny
    kFailed,  // the hook failed; `reason` says how
  };
  Kind kind = Kind::kNone;
  std::string reason;
  std::string context;  // additionalContext, or plain stdout where that is context
  std::optional<nlohmann::json> updated_input;  // PreToolUse updatedInput (an object)
  bool stop_run = false;                        // "continue": false
  std::string stop_reason;
  std::string system_message;
  bool suppress_output = false;
};

HookVerdict interpret_hook_run(HookEvent event, const HookRun& run, const HookCommand& hook);

const char* verdict_kind_name(HookVerdict::Kind kind);  // "none", "allow", "ask", "block", "failed"

}  // namespace nib::hooks
