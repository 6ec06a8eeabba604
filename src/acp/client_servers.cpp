#include "acp/client_servers.hpp"

#include <string>

#include <nlohmann/json.hpp>

namespace nib::acp {

using nlohmann::json;

namespace {

// [{name, value}] as {name: value}; nothing when an entry is not a pair of strings.
std::optional<json> pairs_object(const json& pairs) {
  json object = json::object();
  if (pairs.is_null()) return object;
  if (!pairs.is_array()) return std::nullopt;
  for (const json& pair : pairs) {
    if (!pair.is_object() || !pair.value("name", json()).is_string() ||
        !pair.value("value", json()).is_string()) {
      return std::nullopt;
    }
    object[pair["name"].get<std::string>()] = pair["value"];
  }
  return object;
}

}  // namespace

util::Result<json> client_servers(const json& mcp_servers) {
  using Result = util::Result<json>;
  if (mcp_servers.is_null()) return json();
  if (!mcp_servers.is_array()) return Result::failure("mcpServers must be an array");
  json servers = json::object();
  for (std::size_t i = 0; i < mcp_servers.size(); ++i) {
    const json& entry = mcp_servers[i];
    const std::string where = "mcpServers[" + std::to_string(i) + "]";
    if (!entry.is_object() || !entry.value("name", json()).is_string()) {
      return Result::failure(where + " needs a name");
    }
    const std::string name = entry["name"];
    const std::string type = entry.value("type", "stdio");
    json server;
    if (type == "stdio") {
      if (!entry.value("command", json()).is_string()) {
        return Result::failure(where + " (" + name + ") needs a command");
      }
      const auto env = pairs_object(entry.value("env", json()));
      if (!env) return Result::failure(where + " (" + name + "): env must be [{name, value}]");
      server = {{"command", entry["command"]},
                {"args", entry.value("args", json::array())},
                {"env", *env}};
    } else if (type == "http") {
      if (!entry.value("url", json()).is_string()) {
        return Result::failure(where + " (" + name + ") needs a url");
      }
      const auto headers = pairs_object(entry.value("headers", json()));
      if (!headers) {
        return Result::failure(where + " (" + name + "): headers must be [{name, value}]");
      }
      server = {{"type", "http"}, {"url", entry["url"]}, {"headers", *headers}};
    } else {
      return Result::failure(where + " (" + name + "): nib does not connect to " + type +
                             " MCP servers (stdio and http only)");
    }
    servers[name] = std::move(server);
  }
  if (servers.empty()) return json();
  return json{{"mcpServers", std::move(servers)}};
}

}  // namespace nib::acp
