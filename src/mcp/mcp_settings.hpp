#pragma once
// The files MCP's configuration comes from, as the app lists them, and the "mcp" section of
// nib's settings files:
//   "mcp": {"startupTimeoutMs": 30000, "callTimeoutMs": 120000, "allow": ["github", "all"]}
// The timeouts are every server's defaults (a server's own entry wins). "allow" names project
// servers that run without being approved ("all": every one); it is read from the user's
// settings only, since a project must not approve its own servers. A bad value is reported and
// the default kept: MCP servers are not worth refusing a run over. Pure; thread-compatible.

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "mcp/limits.hpp"

namespace nib::mcp {

// One place MCP's configuration is read from (app::SettingsSource without the app layer, an
// MCP server file, or one scope of one: scoped_servers.hpp); the app lists them weakest first.
struct ConfigSource {
  std::filesystem::path file;
  // The project's (.mcp.json, a project's or this checkout's settings): its servers run only
  // once approved (server_approval.hpp), and its "mcp.allow" is not read.
  bool from_project = false;
  // What was read already (a settings file, or one scope of a file of servers): its
  // "mcpServers" and "mcp" sections are taken. Null: `file` is an MCP server file
  // ({"mcpServers": {...}}), read when the servers are looked for.
  std::shared_ptr<const nlohmann::json> document;
  // Named on the command line (--mcp-config): a broken one is a failure, not a problem.
  bool named = false;
  // How people are told of it (ServerConfig::origin); empty: the file's path.
  std::string origin;
};

// A tool's schema is commonly 0.3-1 KB: a few servers of a dozen tools each stay listed, while
// servers of many tools (tens of KB, paid for in every request) go behind tool_search.
inline constexpr std::size_t kDefaultToolSearchAboveKB = 16;

struct McpSettings {
  std::chrono::milliseconds startup_timeout = kDefaultStartupTimeout;
  std::chrono::milliseconds call_timeout = kDefaultCallTimeout;
  // "toolSearchAboveKB": once the servers' tool schemas come to more than this, they are offered
  // through tool_search rather than listed in every request (core/tool_registry.hpp); 0: always.
  std::size_t tool_search_above_bytes = kDefaultToolSearchAboveKB * 1024;
  std::vector<std::string> allow;     // from the user's settings only
  std::vector<std::string> problems;  // values left at their default, and why, naming the file
};

// The "mcp" sections of the settings among `sources`, a later file's value winning; "allow"
// lists add up.
McpSettings read_mcp_settings(const std::vector<ConfigSource>& sources);

}  // namespace nib::mcp
