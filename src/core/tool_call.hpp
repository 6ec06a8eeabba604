#pragma once
// One tool call's steps before scheduling: prepare (find the tool, parse and validate the
// arguments, ask the tool what the call touches), check (the PreToolUse hooks, which may also
// rewrite the arguments, then the gate: the permission policy), run (execute, turning any
// exception into an error result) and the after-tool hook (which may add to the result). Each
// step is a pure function of its inputs; thread-safe as the tools are.

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/events.hpp"
#include "core/messages.hpp"
#include "core/tool.hpp"
#include "core/tool_registry.hpp"

namespace nib::core {

// Validation reports at most this many field errors: enough to fix a call, short enough that
// a badly confused call does not flood the context.
inline constexpr std::size_t kMaxReportedFieldErrors = 5;

struct PreparedCall {
  ToolPtr tool;         // shared: a worker abandoned after an abort may outlive the registry
  nlohmann::json args;  // a JSON object that passed the tool's schema
  // What the call touches, from the tool (Tool::access) for exactly `args`; never null. Shared
  // with the call's ToolContext, which may outlive the batch.
  std::shared_ptr<const CallAccess> access;
  bool args_updated = false;  // a hook replaced the model's arguments with `args`
  // Added to the end of the result the model receives (a hook's additionalContext).
  std::string gate_context;
};

// Finds the tool and checks the arguments, in this order: unknown tool, arguments that are not
// a JSON object (including text that is not JSON), schema violations; then asks the tool what
// the call touches (a tool that cannot say refuses the call). A failure comes back as the
// error result the model receives. `context`: the one the call would run with. A tool not
// offered to a model that edits in `model_style` (offered_to) is unknown to its calls.
std::variant<PreparedCall, ToolResult> prepare_tool_call(const ToolCall& call,
                                                         const ToolRegistry& registry,
                                                         const ToolContext& context,
                                                         EditStyle model_style = EditStyle::kAny);

// What the checks before a call see.
struct GateRequest {
  std::string tool_call_id;
  std::string name;
  const nlohmann::json* args = nullptr;  // validated against the tool's schema
  // What the call touches (PreparedCall::access): the only account of its paths, command and
  // host that a check may judge. Never null for a prepared call.
  const CallAccess* access = nullptr;
  // Set from the PreToolUse verdict for the gate: non-empty means a hook answered "ask" with
  // this reason, so the gate must ask the user even where its rules would allow the call (and,
  // with nobody to ask, refuse it with this reason).
  std::string hook_asks;
  // Set when a hook answered "allow": the gate asks nothing, and only what it refuses outright
  // (a deny rule) still blocks the call.
  bool hook_allows = false;
  // The tool called and the context it would run with: for a gate that shows the user what
  // the call would change (Tool::preview_change) before it runs. Null in the after-tool hook.
  const Tool* tool = nullptr;
  const ToolContext* context = nullptr;
};

// What the gate decides.
struct GateDecision {
  bool block = false;
  std::string reason;  // shown to the model when blocked
  std::string source;  // who blocked it, e.g. "user", "permission rule"
};
// Called after validation and the PreToolUse check, before execution, on the loop's thread
// (or a tool's worker, for a follow-up). May block (e.g. waiting for the user's approval) but
// should return once `stop` is requested.
using Gate = std::function<GateDecision(const GateRequest&, std::stop_token)>;

// What the checks that run before the gate (PreToolUse hooks) decide about a call.
struct PreToolVerdict {
  enum class Kind {
    kNone,   // no opinion: the gate decides
    kAllow,  // the gate asks nothing; its outright refusals (deny rules) still hold
    kAsk,    // the gate must ask the user (`reason` says why); with nobody to ask it refuses
    kBlock,  // the call does not run: `reason`, from `source`
  };
  Kind kind = Kind::kNone;
  std::string reason;
  std::string source;
  // The arguments to run with instead of the model's (a hook's updatedInput). They are
  // validated against the tool's schema and the call is judged again on them before the gate;
  // arguments that fail block the call.
  std::optional<nlohmann::json> updated_args;
  std::string additional_context;  // added to the end of the result when the call runs
};
using PreToolCheck = std::function<PreToolVerdict(const GateRequest&, std::stop_token)>;

// Puts a prepared call through `pre_tool` then `gate`; either may be empty. A check that
// throws blocks the call (it never fails open). Arguments a hook rewrote are checked against
// the tool's schema in `registry` and judged again (Tool::access) before the gate sees them;
// they replace `prepared.args` and `prepared.access` (with args_updated set), or block the
// call, saying why. The hook's context goes to `prepared.gate_context`. Returns the error
// result for a blocked call, or nothing when the call may run. `context` is the one the call
// would run with (GateRequest::context).
std::optional<ToolResult> apply_gate(const PreToolCheck& pre_tool, const Gate& gate,
                                     const ToolCall& call, PreparedCall& prepared,
                                     const ToolRegistry& registry, const ToolContext& context,
                                     std::stop_token stop);

// ToolContext::check_follow_up for `call`: a call of the same tool with other arguments, put
// through prepare and apply_gate as a call of its own would be (its result text when refused).
// `registry` and whatever `gate` refers to must outlive every use that is not stopped: once
// `stop` is requested (as it is before a call is ever abandoned) it refuses without them.
std::function<std::optional<std::string>(const nlohmann::json&, std::stop_token)> follow_up_checker(
    PreToolCheck pre_tool, Gate gate, ToolCall call, const ToolRegistry& registry,
    ToolContext context);

// Runs the tool and shapes its output into an outcome (duration left for the caller to fill).
// Exceptions become "Error: tool X threw: ...". `content` wins over `output`. The result
// ends with a note of the arguments the call ran with when the gate rewrote them, and with the
// gate's context.
ToolOutcome run_tool(const ToolCall& call, const PreparedCall& prepared, std::stop_token stop,
                     const ToolContext& context);

// Called on the call's worker thread once it has run, before its result is final (PostToolUse
// hooks): may add to the result (append_text). Must return once `stop` is requested.
using AfterTool = std::function<void(const GateRequest&, ToolResult&, std::stop_token)>;

// Runs `after` (when set) on the result of a call that ran; an exception from it is added to
// the result as a note rather than lost.
void apply_after_tool(const AfterTool& after, const ToolCall& call, const PreparedCall& prepared,
                      ToolResult& result, std::stop_token stop);

// Adds `text` to the end of `content`, as its own paragraph of the last text block (or a new
// text block after an image). Nothing for empty text.
void append_text(Content& content, const std::string& text);

// An error result for `call` with the given text.
ToolResult error_result(const ToolCall& call, std::string text);

}  // namespace nib::core
