#pragma once
// The stdio transport: the server is a child process; nib writes one JSON-RPC message per line
// to its stdin and reads one per line from its stdout (newline-delimited JSON).
//
// The process is started like a command (tools/subprocess: its own session, killed when the
// thread that started it ends) by this transport's I/O thread, which lives as long as the
// connection, so the server dies with nib; it is recorded in the command registry, so a nib
// killed with -9 has it ended by the next one. Its stderr is kept in a bounded ring (limits.hpp)
// for failure messages. A stdout line that is not JSON-RPC is noted and skipped; a line longer
// than kMaxLineBytes is dropped, never held. When the process exits, on_closed says how.
//
// Thread-safe (see transport.hpp): send() writes whole lines under a lock.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "mcp/transport.hpp"

namespace nib::mcp {

struct StdioLaunch {
  std::vector<std::string> argv;  // argv[0] a program name (looked up in PATH) or a path
  std::filesystem::path cwd;
  std::vector<std::string> environment;  // complete, "NAME=value" entries
  std::string label;                     // the server's name, for the command registry and messages
};

// `argv[0]` resolved against the PATH of `environment` (a name without "/") or `cwd` (a path
// with one); a failure names the program and where it was looked for.
util::Result<std::string> find_program(const std::string& program,
                                       const std::vector<std::string>& environment,
                                       const std::filesystem::path& cwd);

std::unique_ptr<Transport> make_stdio_transport(StdioLaunch launch);

}  // namespace nib::mcp
