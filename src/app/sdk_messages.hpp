#pragma once
// The messages of Claude Code's stream-json transport, the one the Claude Agent SDK drives its
// executable with (sdk_mode.hpp): what nib writes (system/init, assistant, user tool results,
// result, control responses, its can_use_tool requests) in the shapes the SDK and its callers
// read. Pure functions.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/events.hpp"
#include "core/messages.hpp"

namespace nib::app {

// What system/init says about the session.
struct SdkInitFacts {
  std::string session_id;
  std::string cwd;
  std::string model;
  std::string permission_mode;     // Claude Code's name ("default", "acceptEdits", ...)
  std::vector<std::string> tools;  // Claude Code's names where it has them
  std::vector<std::string> slash_commands;
  std::vector<std::string> mcp_servers;  // their names
  std::string version;                   // nib's
};
nlohmann::json sdk_init(const SdkInitFacts& facts);

// A reply as an assistant message (an Anthropic Messages API message), or a batch of tool
// results as a user message of tool_result blocks.
nlohmann::json sdk_assistant(const core::AssistantMessage& reply, const std::string& session_id);
nlohmann::json sdk_tool_results(const core::ToolResultMessage& results,
                                const std::string& session_id);

// A call the client's canUseTool refused, for result.permission_denials.
struct SdkDenial {
  std::string tool_name;  // Claude Code's name where it has one
  std::string tool_use_id;
  nlohmann::json tool_input;
};

struct SdkRunFacts {
  core::RunEndEvent end;
  std::string final_text;  // the last reply's text: the result
  std::int64_t duration_ms = 0;
  std::int64_t duration_api_ms = 0;
  std::optional<double> cost_usd;
  std::string model;
  std::vector<SdkDenial> denials;
  std::string session_id;
};
// The run's result message: subtype success, error_max_turns or error_during_execution (with
// `errors`, which the SDK requires of an error result).
nlohmann::json sdk_result(const SdkRunFacts& facts);

// A control_response to request `request_id`: success with `response`, or an error.
nlohmann::json sdk_control_success(const nlohmann::json& request_id, nlohmann::json response);
nlohmann::json sdk_control_error(const nlohmann::json& request_id, const std::string& error,
                                 const std::string& code = "");

// nib's can_use_tool request for a call of `tool_name` (Claude's name) with `input`.
nlohmann::json sdk_can_use_tool(const std::string& request_id, const std::string& tool_name,
                                const nlohmann::json& input, const std::string& tool_use_id,
                                const std::string& reason);

}  // namespace nib::app
