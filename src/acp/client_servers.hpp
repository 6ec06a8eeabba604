#pragma once
// The MCP servers an ACP client hands to session/new or session/load (`mcpServers`: stdio
// {name, command, args, env: [{name, value}]}, http {type: "http", name, url, headers: [{name,
// value}]}) as an MCP server document ({"mcpServers": {NAME: {...}}}) in the shape nib's own
// files have, so that MCP's configuration reader is their one reader. Pure function.

#include <nlohmann/json_fwd.hpp>

#include "util/result.hpp"

namespace nib::acp {

// The document; null when the client brings none. A failure names the entry nib cannot run
// (an SSE server, a malformed entry).
util::Result<nlohmann::json> client_servers(const nlohmann::json& mcp_servers);

}  // namespace nib::acp
