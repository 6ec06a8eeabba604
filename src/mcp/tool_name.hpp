#pragma once
// The model-facing name of a server's tool: "mcp__<server>__<tool>", with every character the
// providers refuse in a function name (anything but letters, digits, "_" and "-") made "_", and
// a name over kMaxToolNameChars shortened to its start plus a hash of the whole name, so the
// same tool always gets the same name and two long names do not collide. Pure; thread-safe.

#include <string>

namespace nib::mcp {

std::string tool_name(const std::string& server, const std::string& tool);

// "mcp__<server>__", the prefix every tool of `server` has (permission rules "mcp__server__*").
std::string tool_prefix(const std::string& server);

}  // namespace nib::mcp
