#pragma once
// `nib acp`: nib as an Agent Client Protocol (v1) agent on stdin/stdout, for editors (Zed,
// JetBrains IDEs, Neovim, Emacs) and other ACP clients. One JSON-RPC message a line; logs go
// to stderr only. Each session (session/new, session/load) is an AcpSession: the same run
// assembly, guard, tools, hooks and session files as every other front end, with the client
// as the one who sees what happens and is asked. When the client closes stdin (or `stop`
// fires), every prompt still running stops as an abort stops it and nib returns.

#include <filesystem>
#include <ostream>
#include <stop_token>

#include "app/cli.hpp"
#include "util/user_places.hpp"

namespace nib::app {

// Serves one client on `in_fd`/`out_fd` until it goes; 0 when stdin ended, 130 when stopped.
// `cwd`: nib's own working directory (session/list without one lists this directory's sessions).
int run_acp_agent(const CliOptions& options, const util::UserPlaces& places,
                  const std::filesystem::path& cwd, int in_fd, int out_fd, std::ostream& log,
                  std::stop_token stop);

}  // namespace nib::app
