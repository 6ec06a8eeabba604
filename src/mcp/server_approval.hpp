#pragma once
// Which configured MCP servers may start, so that a cloned repository never starts a program
// by itself: the user's own always; a project's (ServerConfig::from_project) only when the user
// allows it by name (--mcp-allow, the user's settings' mcp.allow; "all" for every one) or
// approved this very entry for this project (approval_store.hpp), or, for a server of the
// project's .mcp.json that nib was never asked about, when the user approved it in Claude Code
// (claude_answers.hpp; its origin then says where). A server the user declined (in nib or in
// Claude Code) is reported; one never answered is left for the front end to ask about (the
// interactive mode) or to report (print mode, not_approved_notice). Reads the approvals file;
// thread-safe as the file system is.

#include <filesystem>
#include <string>
#include <vector>

#include "mcp/approval_store.hpp"
#include "mcp/claude_answers.hpp"
#include "mcp/server_config.hpp"
#include "mcp/server_connection.hpp"

namespace nib::mcp {

struct ServerApprovals {
  std::vector<ServerConfig> approved;      // to start
  std::vector<ServerStatus> not_approved;  // shown as kNotApproved, saying how to approve them
  std::vector<ServerConfig> awaiting;      // neither approved nor declined yet
  std::vector<std::string> notices;        // one line for each declined server
};

// `servers` sorted by approval (see above); `allowed`: the names allowed without approval;
// `claude`: Claude Code's answers about `project`'s .mcp.json servers.
ServerApprovals sort_by_approval(std::vector<ServerConfig> servers,
                                 const std::vector<std::string>& allowed,
                                 const ApprovalStore& store,
                                 const std::vector<ClaudeAnswers>& claude,
                                 const std::filesystem::path& project);

// "the MCP server X of FILE was not started: it is the project's and not approved yet; approve
// it with `nib mcp approve X` ...".
std::string not_approved_notice(const ServerConfig& config);

}  // namespace nib::mcp
