#pragma once
// The fake stdio MCP server the tests start (tests/mcp/fixtures/fake_server.py; its first
// argument picks how it behaves: "normal", "silent", "garbage", ...).

#include <string>

#include <nlohmann/json.hpp>

namespace nib::testing {

inline std::string fake_mcp_server_script() {
  return std::string(NIB_SOURCE_DIR) + "/tests/mcp/fixtures/fake_server.py";
}

// Its "mcpServers" entry, behaving as `mode` says.
inline nlohmann::json fake_mcp_server(const std::string& mode) {
  return {{"command", "python3"}, {"args", {fake_mcp_server_script(), mode}}};
}

}  // namespace nib::testing
