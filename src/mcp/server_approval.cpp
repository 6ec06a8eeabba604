#include "mcp/server_approval.hpp"

#include <algorithm>

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

}  // namespace

ServerApprovals sort_by_approval(std::vector<ServerConfig> servers,
                                 const std::vector<std::string>& allowed,
                                 const ApprovalStore& store, const std::filesystem::path& project) {
  ServerApprovals sorted;
  for (ServerConfig& config : servers) {
    const auto answer = !config.from_project || named(allowed, config.name)
                            ? ApprovalStore::Answer::kApproved
                            : store.answer(project, config.name, config.fingerprint);
    if (answer == ApprovalStore::Answer::kApproved) {
      sorted.approved.push_back(std::move(config));
      continue;
    }
    ServerStatus status{.name = config.name,
                        .state = ServerState::kNotApproved,
                        .detail = approve_how(config.name),
                        .file = config.file,
                        .transport = describe_transport(config)};
    if (answer == ApprovalStore::Answer::kDeclined) {
      status.detail = "you declined it for this project; " + status.detail;
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
