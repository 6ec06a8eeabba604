#pragma once
// One tool call's steps before scheduling: prepare (find the tool, parse and validate the
// arguments), gate (the embedder's on_tool_call hook, which may also rewrite the arguments),
// run (execute, turning any exception into an error result) and the after-tool hook (which may
// add to the result). Each step is a pure function of its inputs; thread-safe as the tools are.

#include <functional>
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
  ToolPtr tool;               // shared: a worker abandoned after an abort may outlive the registry
  nlohmann::json args;        // a JSON object that passed the tool's schema
  bool args_updated = false;  // the gate replaced the model's arguments with `args`
  // Added to the end of the result the model receives (a hook's additionalContext).
  std::string gate_context;
};

// Finds the tool and checks the arguments, in this order: unknown tool, arguments that are not
// a JSON object (including text that is not JSON), schema violations. A failure comes back as
// the error result the model receives.
std::variant<PreparedCall, ToolResult> prepare_tool_call(const ToolCall& call,
                                                         const ToolRegistry& registry);

// What the on_tool_call hook sees, and what it decides.
struct GateRequest {
  std::string tool_call_id;
  std::string name;
  const nlohmann::json* args = nullptr;
  bool read_only = false;  // the tool's ToolSpec::read_only
  bool delegates = false;  // the tool's ToolSpec::delegates
  // Set by a gate that wraps another (hooks/pre_tool_use_gate.hpp): non-empty means a hook
  // answered "ask" with this reason, so the inner gate must ask the user even where its rules
  // would allow the call (and, with nobody to ask, refuse it with this reason).
  std::string hook_asks;
  // Set by the same wrapping gate when a hook answered "allow": the inner gate asks nothing,
  // and only what it refuses outright (a deny rule) still blocks the call.
  bool hook_allows = false;
  // The tool called and the context it would run with: for a gate that shows the user what
  // the call would change (Tool::preview_change) before it runs. Null in the after-tool hook.
  const Tool* tool = nullptr;
  const ToolContext* context = nullptr;
};
struct GateDecision {
  bool block = false;
  std::string reason;  // shown to the model when blocked
  std::string source;  // who blocked it, e.g. "user", "permission rule"
  // When the call may run: the arguments it runs with instead of the model's (a hook's
  // updatedInput). They are validated against the tool's schema again; arguments that fail
  // block the call.
  std::optional<nlohmann::json> updated_args;
  // When the call may run: text added to the end of its result (a hook's additionalContext).
  std::string additional_context;
};
// Called after validation and before execution, on the loop's thread. May block (e.g. waiting
// for the user's approval) but should return once `stop` is requested.
using Gate = std::function<GateDecision(const GateRequest&, std::stop_token)>;

// Asks the gate; a gate that throws blocks the call (it never fails open). Returns the error
// result for a blocked call, or nothing when the call may run. Arguments the gate rewrote are
// checked against the tool's schema in `registry` and replace `prepared.args` (with
// args_updated set); when they fail, the call is blocked, saying why. The gate's
// additional_context goes to `prepared.gate_context`. `context` is the one the call would run
// with (GateRequest::context).
std::optional<ToolResult> apply_gate(const Gate& gate, const ToolCall& call, PreparedCall& prepared,
                                     const ToolRegistry& registry, const ToolContext& context,
                                     std::stop_token stop);

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
