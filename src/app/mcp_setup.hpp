#pragma once
// Where a run's MCP servers come from and how they are started.
//
// Configured in Claude Code's format (mcp/server_config.hpp), weakest first, a later entry of
// the same name replacing an earlier one: ~/.config/nib/mcp.json, the "mcpServers" of nib's
// user settings, the project's .mcp.json, the "mcpServers" of nib's project (and local)
// settings, then every --mcp-config file. Servers from the project directory run only once
// approved (mcp/approval_store.hpp: `nib mcp approve NAME`, or the interactive mode's question at
// start), or when --mcp-allow or the user's settings "mcp": {"allow": [...]} name them ("all"
// for every one); a project file cannot approve itself. One the user declined is not asked
// about again (until its entry changes). Settings "mcp": {"startupTimeoutMs": N, "callTimeoutMs":
// M} change the defaults (30 s, 120 s); a server's own entry wins.
//
// Not thread-safe by itself; the ServerSet it returns is.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/print_mode.hpp"
#include "app/settings.hpp"
#include "core/tool_registry.hpp"
#include "mcp/server_config.hpp"
#include "mcp/server_set.hpp"
#include "util/result.hpp"

namespace nib::app {

struct McpCatalog {
  std::vector<mcp::ServerConfig> servers;  // by name, in the order first configured
  std::vector<std::string> problems;       // files or entries left out, and why
};

// The user's MCP server file, ~/.config/nib/mcp.json (where `nib mcp add` writes by default).
std::filesystem::path user_mcp_file(const std::filesystem::path& user_config_dir);
// The project's, <cwd>/.mcp.json (`nib mcp add --scope project`).
std::filesystem::path project_mcp_file(const std::filesystem::path& cwd);
// Where approvals are kept: ~/.config/nib/mcp-approvals.json.
std::filesystem::path approvals_file(const std::filesystem::path& user_config_dir);

// Every configured server (see above). A broken file found by itself is a problem and left out;
// a broken --mcp-config file (named on purpose) is a failure.
util::Result<McpCatalog> find_mcp_servers(const Configuration& configuration,
                                          const std::filesystem::path& user_config_dir,
                                          const std::filesystem::path& cwd,
                                          const std::vector<std::string>& extra_files);

struct McpStart {
  std::unique_ptr<mcp::ServerSet> servers;  // null when none is configured
  std::vector<std::string> notices;         // one line each, for stderr at start-up
  // Project servers neither approved nor declined yet (shown as not approved by `servers`):
  // the interactive mode asks about them; print mode says how to approve them
  // (not_approved_notice).
  std::vector<mcp::ServerConfig> awaiting;
};

// Starts the run's servers in the background (their tools join `registry` as they become
// ready) and says which were left out: broken entries, and project servers declined.
util::Result<McpStart> start_mcp_servers(const CliOptions& options, const RunContext& context,
                                         core::ToolRegistry& registry);

// "the MCP server X of FILE was not started: ...; approve it with `nib mcp approve X` ...".
std::string not_approved_notice(const mcp::ServerConfig& config);

// Remembers the user's answer about a project server (for this project and this very entry).
util::Status remember_mcp_answer(const RunContext& context, const mcp::ServerConfig& config,
                                 bool approved);

}  // namespace nib::app
