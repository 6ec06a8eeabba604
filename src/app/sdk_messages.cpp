#include "app/sdk_messages.hpp"

#include "provider/anthropic_request.hpp"
#include "session/session_file.hpp"

namespace nib::app {
namespace {

using nlohmann::json;

// Each message carries an id of its own, as Claude Code's do.
std::string uuid() {
  const std::string hex = session::new_session_id();
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20, 12);
}

json usage_json(const core::Usage& usage) {
  return {{"input_tokens", usage.input_tokens},
          {"output_tokens", usage.output_tokens},
          {"cache_creation_input_tokens", usage.cache_write_tokens},
          {"cache_read_input_tokens", usage.cache_read_tokens}};
}

// Anthropic's name for why a reply ended; none for an aborted or failed one, which the service
// never names (as Claude Code streams a reply it has not finished).
json stop_reason(core::StopReason reason) {
  if (reason == core::StopReason::kAborted || reason == core::StopReason::kError) return nullptr;
  return core::stop_reason_name(reason);
}

}  // namespace

json sdk_init(const SdkInitFacts& facts) {
  json servers = json::array();
  for (const std::string& name : facts.mcp_servers) {
    servers.push_back({{"name", name}, {"status", "pending"}});
  }
  return {{"type", "system"},
          {"subtype", "init"},
          {"cwd", facts.cwd},
          {"session_id", facts.session_id},
          {"tools", facts.tools},
          {"mcp_servers", std::move(servers)},
          {"model", facts.model},
          {"permissionMode", facts.permission_mode},
          {"slash_commands", facts.slash_commands},
          {"apiKeySource", "none"},
          {"claude_code_version", "nib " + facts.version},
          {"output_style", "default"},
          {"agents", json::array()},
          {"skills", json::array()},
          {"plugins", json::array()},
          {"uuid", uuid()}};
}

json sdk_assistant(const core::AssistantMessage& reply, const std::string& session_id) {
  return {{"type", "assistant"},
          {"message",
           {{"id", "msg_" + session::new_session_id()},
            {"type", "message"},
            {"role", "assistant"},
            {"model", reply.model},
            {"content", provider::anthropic_content_blocks(core::Message{reply})},
            {"stop_reason", stop_reason(reply.stop_reason)},
            {"stop_sequence", nullptr},
            {"usage", usage_json(reply.usage)}}},
          {"parent_tool_use_id", nullptr},
          {"session_id", session_id},
          {"uuid", uuid()}};
}

json sdk_tool_results(const core::ToolResultMessage& results, const std::string& session_id) {
  return {
      {"type", "user"},
      {"message",
       {{"role", "user"}, {"content", provider::anthropic_content_blocks(core::Message{results})}}},
      {"parent_tool_use_id", nullptr},
      {"session_id", session_id},
      {"uuid", uuid()}};
}

json sdk_result(const SdkRunFacts& facts) {
  json denials = json::array();
  for (const SdkDenial& denial : facts.denials) {
    denials.push_back({{"tool_name", denial.tool_name},
                       {"tool_use_id", denial.tool_use_id},
                       {"tool_input", denial.tool_input}});
  }
  json result = {{"type", "result"},
                 {"duration_ms", facts.duration_ms},
                 {"duration_api_ms", facts.duration_api_ms},
                 {"num_turns", facts.end.turns},
                 {"stop_reason", nullptr},
                 {"total_cost_usd", facts.cost_usd.value_or(0)},
                 {"usage", usage_json(facts.end.usage)},
                 {"modelUsage", json::object()},
                 {"permission_denials", std::move(denials)},
                 {"session_id", facts.session_id},
                 {"uuid", uuid()}};
  switch (facts.end.reason) {
    case core::RunStopReason::kDone:
      result["subtype"] = "success";
      result["is_error"] = false;
      result["result"] = facts.final_text;
      result["stop_reason"] = "end_turn";
      return result;
    case core::RunStopReason::kMaxTurns:
      result["subtype"] = "error_max_turns";
      result["errors"] = {"Reached maximum number of turns (" + std::to_string(facts.end.turns) +
                          ")"};
      break;
    case core::RunStopReason::kMaxBudget:
      result["subtype"] = "error_max_budget_usd";
      result["errors"] = {"Reached maximum budget: " + facts.end.error_message};
      break;
    case core::RunStopReason::kAborted:
      result["subtype"] = "error_during_execution";
      result["errors"] = {"The run was interrupted"};
      break;
    case core::RunStopReason::kError:
      result["subtype"] = "error_during_execution";
      result["errors"] = {facts.end.error_message};
      break;
  }
  result["is_error"] = true;
  return result;
}

json sdk_control_success(const json& request_id, json response) {
  return {
      {"type", "control_response"},
      {"response",
       {{"subtype", "success"}, {"request_id", request_id}, {"response", std::move(response)}}}};
}

json sdk_control_error(const json& request_id, const std::string& error, const std::string& code) {
  json response = {{"subtype", "error"}, {"request_id", request_id}, {"error", error}};
  if (!code.empty()) response["error_code"] = code;
  return {{"type", "control_response"}, {"response", std::move(response)}};
}

json sdk_can_use_tool(const std::string& request_id, const std::string& tool_name,
                      const json& input, const std::string& tool_use_id,
                      const std::string& reason) {
  return {{"type", "control_request"},
          {"request_id", request_id},
          {"request",
           {{"subtype", "can_use_tool"},
            {"tool_name", tool_name},
            {"input", input},
            {"permission_suggestions", json::array()},
            {"tool_use_id", tool_use_id},
            {"description", reason}}}};
}

}  // namespace nib::app
