#include "mcp/json_rpc.hpp"

namespace nib::mcp {
namespace {

using Result = util::Result<Incoming>;

bool valid_id(const nlohmann::json& id) {
  return id.is_string() || id.is_number_integer();
}

}  // namespace

util::Result<Incoming> parse_message(std::string_view text) {
  nlohmann::json message = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return Result::failure("not JSON");
  if (message.is_array()) return Result::failure("a JSON-RPC batch, which MCP does not use");
  if (!message.is_object()) return Result::failure("not a JSON object");
  const auto version = message.find("jsonrpc");
  if (version == message.end() || *version != "2.0") {
    return Result::failure("not JSON-RPC 2.0 (no \"jsonrpc\": \"2.0\")");
  }
  Incoming incoming;
  const auto method = message.find("method");
  const auto id = message.find("id");
  if (method != message.end()) {
    if (!method->is_string()) return Result::failure("\"method\" is not a string");
    incoming.method = method->get<std::string>();
    if (const auto params = message.find("params"); params != message.end()) {
      incoming.params = std::move(*params);
    }
    if (id == message.end()) {
      incoming.kind = Incoming::Kind::kNotification;
      return incoming;
    }
    if (!valid_id(*id)) return Result::failure("the request's \"id\" is not a string or integer");
    incoming.kind = Incoming::Kind::kRequest;
    incoming.id = std::move(*id);
    return incoming;
  }
  if (id == message.end() || !(valid_id(*id) || id->is_null())) {
    return Result::failure("neither a request, a notification nor a response");
  }
  incoming.kind = Incoming::Kind::kResponse;
  incoming.id = std::move(*id);
  if (const auto error = message.find("error"); error != message.end()) {
    if (!error->is_object()) return Result::failure("\"error\" is not an object");
    RpcError rpc_error;
    rpc_error.code = error->value("code", kInternalError);
    rpc_error.message = error->value("message", std::string("(no message)"));
    if (const auto data = error->find("data"); data != error->end()) rpc_error.data = *data;
    incoming.error = std::move(rpc_error);
    return incoming;
  }
  const auto result = message.find("result");
  if (result == message.end()) return Result::failure("a response with neither result nor error");
  incoming.result = std::move(*result);
  return incoming;
}

nlohmann::json make_request(const nlohmann::json& id, const std::string& method,
                            nlohmann::json params) {
  nlohmann::json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = std::move(params);
  return request;
}

nlohmann::json make_notification(const std::string& method, nlohmann::json params) {
  nlohmann::json notification = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) notification["params"] = std::move(params);
  return notification;
}

nlohmann::json make_response(const nlohmann::json& id, nlohmann::json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

nlohmann::json make_error_response(const nlohmann::json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

Incoming no_answer(const nlohmann::json& id, std::string message) {
  Incoming incoming;
  incoming.kind = Incoming::Kind::kResponse;
  incoming.id = id;
  incoming.error = RpcError{kNoAnswer, std::move(message), nullptr};
  return incoming;
}

std::string describe(const RpcError& error) {
  return error.message + " (code " + std::to_string(error.code) + ")";
}

}  // namespace nib::mcp
