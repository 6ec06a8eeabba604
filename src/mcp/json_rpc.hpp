#pragma once
// JSON-RPC 2.0 as MCP uses it: building requests, notifications and responses, and reading one
// incoming message (a line of stdio, a JSON body or an SSE event's data). Batches are not part
// of MCP since 2025-06-18 and are refused. Pure functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace nib::mcp {

// The standard error codes (JSON-RPC 2.0, section 5.1).
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
// nib's own code for a request that got no answer (the transport failed, the server died).
inline constexpr int kNoAnswer = -32000;

struct RpcError {
  int code = kInternalError;
  std::string message;
  nlohmann::json data;  // null when absent
};

// One message as received.
struct Incoming {
  enum class Kind { kRequest, kNotification, kResponse };
  Kind kind = Kind::kNotification;
  nlohmann::json id;              // requests and responses: a number or a string
  std::string method;             // requests and notifications
  nlohmann::json params;          // requests and notifications; null when absent
  nlohmann::json result;          // a successful response
  std::optional<RpcError> error;  // a failed response
};

// Reads one message; a failure says what is wrong with it (not JSON, not JSON-RPC 2.0).
util::Result<Incoming> parse_message(std::string_view text);

nlohmann::json make_request(const nlohmann::json& id, const std::string& method,
                            nlohmann::json params);
nlohmann::json make_notification(const std::string& method, nlohmann::json params);
nlohmann::json make_response(const nlohmann::json& id, nlohmann::json result);
nlohmann::json make_error_response(const nlohmann::json& id, int code, const std::string& message);

// A response carrying an error, as a transport synthesizes it for a request the server never
// answered.
Incoming no_answer(const nlohmann::json& id, std::string message);

// "message (code N)", for people and the model.
std::string describe(const RpcError& error);

}  // namespace nib::mcp
