#pragma once
// Where a run's MCP servers come from: the "mcpServers" of every ConfigSource
// (mcp_settings.hpp), in the order the app lists them, weakest first, a later entry of the same
// name replacing an earlier one. A broken file that was found by itself is a problem and its
// servers are left out; a broken entry in it is a problem and only that server is left out
// (one nib cannot run, like an SSE server in Claude Code's ~/.claude.json, spoils no other); a
// broken file or entry named on the command line is a failure. Reads the MCP server files;
// thread-safe as the file system is.

#include <filesystem>
#include <string>
#include <vector>

#include "mcp/mcp_settings.hpp"
#include "mcp/server_config.hpp"
#include "util/result.hpp"

namespace nib::mcp {

// The user's MCP server file, <user config dir>/mcp.json (where `nib mcp add` writes by
// default); its "projects" hold the user's servers of one project (local scope,
// scoped_servers.hpp).
std::filesystem::path user_servers_file(const std::filesystem::path& user_config_dir);
// The project's, <project>/.mcp.json (`nib mcp add --scope project`).
std::filesystem::path project_servers_file(const std::filesystem::path& project);

struct ServerCatalog {
  std::vector<ServerConfig> servers;  // by name, in the order first configured
  std::vector<std::string> problems;  // files or entries left out, and why
};

// Every server `sources` configure (see above).
util::Result<ServerCatalog> find_servers(const std::vector<ConfigSource>& sources);

}  // namespace nib::mcp
