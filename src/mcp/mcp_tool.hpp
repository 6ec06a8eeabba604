#pragma once
// A server's tool as a nib tool: named mcp__<server>__<tool> (tool_name.hpp), described and
// parameterised as the server lists it, concurrency-safe when the server marks it read-only
// (readOnlyHint), and run as a tools/call through the server's connection. It goes through the
// same prepare (its schema compiled by the registry) → gate → run path as every tool.
// Thread-safe (the connection is).

#include <memory>

#include "core/tool.hpp"
#include "mcp/client.hpp"
#include "mcp/server_connection.hpp"

namespace nib::mcp {

core::ToolPtr make_mcp_tool(std::shared_ptr<ServerConnection> connection, const ServerTool& tool);

}  // namespace nib::mcp
