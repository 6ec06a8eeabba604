#include "mcp/server_approval.hpp"

#include <algorithm>

#include "mcp/server_catalog.hpp"

namespace nib::mcp {
namespace {

bool named(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end() ||
         std::find(names.begin(), names.end(), "all") != names.end();
}

std::string approve_how(const std::string& name) {
  return "approve it with `nib mcp approve " + name +
         "` (remembered for this project) or --mcp-allow " + name;
}

std::string not_started(const ServerConfig& config, const std::string& why) {
  return "the MCP server " + config.name + " of " + config.file.string() +
         " was not started: " + why;
}

// Who declined a server: the user, in nib, or Claude Code's record of it.
std::string declined_how(const ClaudeAnswer& answer) {
  if (answer.place.empty()) return "you declined it for this project";
  return "declined in " + answer.place + " (" + std::string(kDisabledServersKey) + ")";
}

// The user's answer about `config`: approved when it is the user's own or allowed by name;
// else nib's answer for this very entry; else, for a server of the project's .mcp.json,
// Claude Code's, naming where it was recorded (an empty place: nib's own answer).
ClaudeAnswer answer_for(const ServerConfig& config, const std::vector<std::string>& allowed,
                        const ApprovalStore& store, const std::vector<ClaudeAnswers>& claude,
                        const std::filesystem::path& project) {
  if (!config.from_project || named(allowed, config.name)) {
    return {ApprovalStore::Answer::kApproved, ""};
  }
  const ApprovalStore::Answer own = store.answer(project, config.name, config.fingerprint);
  if (own != ApprovalStore::Answer::kNone || config.file != project_servers_file(project)) {
    return {own, ""};
  }
  return claude_answer(claude, config.name);
}

}  // namespace

ServerApprovals sort_by_approval(std::vector<ServerConfig> servers,
                                 const std::vector<std::string>& allowed,
                                 const ApprovalStore& store,
                                 const std::vector<ClaudeAnswers>& claude,
                                 const std::filesystem::path& project) {
  ServerApprovals sorted;
  for (ServerConfig& config : servers) {
    const ClaudeAnswer answer = answer_for(config, allowed, store, claude, project);
    if (answer.answer == ApprovalStore::Answer::kApproved) {
      if (!answer.place.empty()) config.origin += " (approved in " + answer.place + ")";
      sorted.approved.push_back(std::move(config));
      continue;
    }
    if (answer.answer == ApprovalStore::Answer::kDeclined && !answer.place.empty()) {
      config.origin += " (declined in " + answer.place + ")";
    }
    ServerStatus status{.name = config.name,
                        .state = ServerState::kNotApproved,
                        .detail = approve_how(config.name),
                        .origin = config.origin,
                        .transport = describe_transport(config)};
    if (answer.answer == ApprovalStore::Answer::kDeclined) {
      status.detail = declined_how(answer) + "; " + status.detail;
      sorted.notices.push_back(not_started(config, status.detail));
    } else {
      sorted.awaiting.push_back(config);
    }
    sorted.not_approved.push_back(std::move(status));
  }
  return sorted;
}

std::string not_approved_notice(const ServerConfig& config) {
  return not_started(config,
                     "it is the project's and not approved yet; " + approve_how(config.name));
}

}  // namespace nib::mcp
