#pragma once
// `nib mcp ...`: the MCP servers from the command line.
//   nib mcp list                         every configured server: state, tool count, file
//   nib mcp get NAME                     one server's entry, state, tools (or why it failed)
//   nib mcp add NAME [--scope user|project] [-e K=V]... -- COMMAND [ARGS...]
//   nib mcp add NAME --url URL [--header "K: V"]... [--scope user|project]
//   nib mcp remove NAME [--scope user|project]
//   nib mcp approve NAME                 let the project's server NAME run (remembered)
//   nib mcp serve [--ask TOOLS]          nib's tools over stdio MCP (tool_server.hpp), guarded
//                                        as `nib -p` is: the same rules, mode, sandbox and hooks,
//                                        nobody to ask
// user scope is ~/.config/nib/mcp.json, project scope the project's .mcp.json.

#include <functional>
#include <ostream>
#include <stop_token>
#include <string>
#include <vector>

#include "app/print_mode.hpp"

namespace nib::app {

// Builds the run's guard (run_guard.hpp) from flags (`serve --ask` is --ask) and the settings,
// for `serve`: null when it cannot be built (the reason already said).
using McpGuardFactory = std::function<RunGuard*(const CliOptions& flags)>;

// `args` are the words after "mcp". Returns the exit status: 0 success, 1 failure, 2 bad usage.
int run_mcp_command(const std::vector<std::string>& args, const RunContext& context,
                    const McpGuardFactory& make_guard, std::stop_token stop, std::ostream& out,
                    std::ostream& err);

}  // namespace nib::app
