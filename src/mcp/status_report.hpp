#pragma once
// How MCP servers' statuses read for people, one owner for `nib mcp list` and the interactive
// mode's /mcp: a line per server (name, state, tool count or the failure's first line or how to
// approve it, where it comes from), and below it, for /mcp, how it is reached, its tools'
// and prompts' names, and the rest of its detail (the end of a failed server's stderr, tools
// left out). Pure functions; thread-safe.

#include <string>
#include <vector>

#include "mcp/server_connection.hpp"

namespace nib::mcp {

// "everything  ready  13 tools  ~/.claude.json (local scope)" (no newline).
std::string status_line(const ServerStatus& status);

// The status line, then the details indented by two spaces, each line ending in '\n'.
std::string status_report(const ServerStatus& status);

// Said when no server is configured.
inline constexpr const char* kNoServersConfigured =
    "No MCP servers are configured. Add one with: nib mcp add NAME -- COMMAND [ARGS...]";

// The slash command of a server's prompt, "/mcp__<server>__<prompt>" without the slash.
std::string prompt_command_name(const std::string& server, const std::string& prompt);

}  // namespace nib::mcp
