#include "mcp/approval_store.hpp"

#include "mcp/json_file.hpp"

namespace nib::mcp {

bool ApprovalStore::approved(const std::filesystem::path& project, const std::string& server,
                             const std::string& fingerprint) const {
  const auto approvals = read_json_file(file_);
  if (!approvals.ok()) return false;  // unreadable: nothing is approved, so nothing starts
  const auto entry = approvals.value().find(project.string());
  if (entry == approvals.value().end() || !entry->is_object()) return false;
  const auto kept = entry->find(server);
  return kept != entry->end() && *kept == fingerprint;
}

util::Status ApprovalStore::approve(const std::filesystem::path& project, const std::string& server,
                                    const std::string& fingerprint) {
  auto approvals = read_json_file(file_);
  if (!approvals.ok()) return util::Status::failure(approvals.error());
  nlohmann::json& entry = approvals.value()[project.string()];
  if (!entry.is_object()) entry = nlohmann::json::object();
  entry[server] = fingerprint;
  return write_json_file(file_, approvals.value());
}

}  // namespace nib::mcp
