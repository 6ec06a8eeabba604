#pragma once
// The fake stdio MCP server the tests start (tests/mcp/fixtures/fake_server.py; its first
// argument picks how it behaves: "normal", "silent", "garbage", ...).

#include <string>

namespace nib::testing {

inline std::string fake_mcp_server_script() {
  return std::string(NIB_SOURCE_DIR) + "/tests/mcp/fixtures/fake_server.py";
}

}  // namespace nib::testing
