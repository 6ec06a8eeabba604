#pragma once
// One tool call's steps before scheduling: prepare (find the tool, parse and validate the
// arguments), gate (the embedder's on_tool_call hook) and run (execute, turning any exception
// into an error result). Each step is a pure function of its inputs; thread-safe as the tools are.

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
  ToolPtr tool;         // shared: a worker abandoned after an abort may outlive the registry
  nlohmann::json args;  // a JSON object that passed the tool's schema
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
};
struct GateDecision {
  bool block = false;
  std::string reason;  // shown to the model when blocked
  std::string source;  // who blocked it, e.g. "user", "permission rule"
};
// Called after validation and before execution, on the loop's thread. May block (e.g. waiting
// for the user's approval) but should return once `stop` is requested.
using Gate = std::function<GateDecision(const GateRequest&, std::stop_token)>;

// Asks the gate; a gate that throws blocks the call (it never fails open). Returns the error
// result for a blocked call, or nothing when the call may run.
std::optional<ToolResult> apply_gate(const Gate& gate, const ToolCall& call,
                                     const PreparedCall& prepared, std::stop_token stop);

// Runs the tool and shapes its output into an outcome (duration left for the caller to fill).
// Exceptions become "Error: tool X threw: ...". `content` wins over `output`.
ToolOutcome run_tool(const ToolCall& call, const PreparedCall& prepared, std::stop_token stop,
                     const ToolContext& context);

// An error result for `call` with the given text.
ToolResult error_result(const ToolCall& call, std::string text);

}  // namespace nib::core
