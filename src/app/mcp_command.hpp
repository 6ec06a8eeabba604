#pragma once
// `nib mcp ...`: the MCP servers from the command line (the arguments of each: cli.hpp).
//   list      every configured server: state, tool count, file
//   get       one server's entry, state, tools (or why it failed)
//   add       a server in the user's file (~/.config/nib/mcp.json), the project's .mcp.json,
//             or the user's servers of this project (local scope, in the user's file)
//   add-json  the same, the server given as its JSON entry (Claude Code's mcp add-json)
//   remove    a server from one of them
//   approve   let the project's server run (remembered)
//   serve     nib's tools over stdio MCP (tool_server.hpp), guarded as `nib -p` is: the same
//             rules, mode, sandbox and hooks, nobody to ask

#include <functional>
#include <ostream>
#include <stop_token>

#include "app/cli.hpp"
#include "app/run_context.hpp"

namespace nib::app {

// Builds the run's guard (run_guard.hpp) from flags and the settings, for `serve`: null when it
// cannot be built (the reason already said).
using McpGuardFactory = std::function<RunGuard*(const CliOptions& flags)>;

// `flags` are those given before "mcp": list and get start the servers a run with them would
// (--mcp-config, --mcp-allow); serve is guarded as they ask (--permission-mode, --ask, to which
// its own --ask adds, --no-sandbox). Returns the exit status: 0 success, 1 failure, 2 an entry
// that would not work or a guard that cannot be built.
int run_mcp_command(const McpArgs& args, const CliOptions& flags, const RunContext& context,
                    const McpGuardFactory& make_guard, std::stop_token stop, std::ostream& out,
                    std::ostream& err);

}  // namespace nib::app
