#pragma once
// The wiring of a run's MCP servers: which files configure them and in which order, and their
// start. By scope, as Claude Code orders them (the user's everywhere, then the project's, then
// the user's in this project), and within a scope Claude Code's file before nib's own; weakest
// first, a later entry of the same name replacing an earlier one:
//   the user's:    ~/.claude.json's "mcpServers" (Claude Code's user scope),
//   ~/.config/nib/mcp.json,
//                  the "mcpServers" of nib's user settings;
//   the project's: the project's .mcp.json, the "mcpServers" of nib's project (and local)
//                  settings;
//   local scope:   the project's entry of ~/.claude.json, then of ~/.config/nib/mcp.json
//                  (scoped_servers.hpp: the user's servers of this project only);
//   then every --mcp-config file, and the servers a client brings.
// Claude Code's settings files hold no MCP servers. ~/.claude.json is Claude Code's: when it
// cannot be read (broken, or too large) that is reported and the run goes on without it.
// Reading the files, the "mcp" settings section and the approvals are MCP's own
// (mcp/mcp_settings.hpp, mcp/server_catalog.hpp, mcp/server_approval.hpp): servers from the
// project directory run only once approved (`nib mcp approve NAME`, or the interactive mode's
// question at start, or in Claude Code: mcp/claude_answers.hpp), or when --mcp-allow or the
// user's settings "mcp": {"allow": [...]} name them.
//
// Not thread-safe by itself; the ServerSet it returns is.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/run_context.hpp"
#include "app/settings.hpp"
#include "core/tool_registry.hpp"
#include "mcp/claude_answers.hpp"
#include "mcp/mcp_settings.hpp"
#include "mcp/server_catalog.hpp"
#include "mcp/server_config.hpp"
#include "mcp/server_set.hpp"
#include "util/result.hpp"

namespace nib::app {

// The MCP configuration of a run, read once (~/.claude.json may be large).
struct McpSources {
  std::vector<mcp::ConfigSource> sources;  // in the order above
  // Claude Code's answers about the project's .mcp.json servers, from its settings files and
  // the project's entry of ~/.claude.json.
  std::vector<mcp::ClaudeAnswers> claude_answers;
  std::vector<std::string> problems;  // files that could not be read and were left out, and why
};

// Everything `context`'s run reads MCP servers from, with the --mcp-config files `extra_files`
// (see above).
McpSources mcp_config_sources(const RunContext& context,
                              const std::vector<std::string>& extra_files);

// Every server configured for `context`'s run, with the --mcp-config files `extra_files`.
util::Result<mcp::ServerCatalog> find_mcp_servers(const RunContext& context,
                                                  const std::vector<std::string>& extra_files);

struct McpStart {
  std::unique_ptr<mcp::ServerSet> servers;  // null when none is configured
  std::vector<std::string> notices;         // one line each, for stderr at start-up
  // Project servers neither approved nor declined yet (shown as not approved by `servers`):
  // the interactive mode asks about them; print mode says how to approve them
  // (mcp::not_approved_notice).
  std::vector<mcp::ServerConfig> awaiting;
};

// Starts the run's servers in the background (their tools join `registry` as they become
// ready) and says which were left out: broken entries, and project servers declined.
util::Result<McpStart> start_mcp_servers(const CliOptions& options, const RunContext& context,
                                         core::ToolRegistry& registry);

// Remembers the user's answer about a project server (for this project and this very entry).
util::Status remember_mcp_answer(const RunContext& context, const mcp::ServerConfig& config,
                                 bool approved);

}  // namespace nib::app
