#include "mcp/approval_store.hpp"

#include "process/json_file.hpp"

namespace nib::mcp {

std::filesystem::path approvals_file(const std::filesystem::path& user_config_dir) {
  return user_config_dir / "mcp-approvals.json";
}

nlohmann::json ApprovalStore::kept(const std::filesystem::path& project,
                                   const std::string& server) const {
  const auto approvals = process::read_json_file(file_);
  if (!approvals.ok()) return nullptr;  // unreadable: nothing is approved, so nothing starts
  const auto entry = approvals.value().find(project.string());
  if (entry == approvals.value().end() || !entry->is_object()) return nullptr;
  const auto value = entry->find(server);
  return value == entry->end() ? nlohmann::json() : *value;
}

util::Status ApprovalStore::keep(const std::filesystem::path& project, const std::string& server,
                                 nlohmann::json value) {
  auto approvals = process::read_json_file(file_);
  if (!approvals.ok()) return util::Status::failure(approvals.error());
  nlohmann::json& entry = approvals.value()[project.string()];
  if (!entry.is_object()) entry = nlohmann::json::object();
  entry[server] = std::move(value);
  return process::write_json_file(file_, approvals.value());
}

ApprovalStore::Answer ApprovalStore::answer(const std::filesystem::path& project,
                                            const std::string& server,
                                            const std::string& fingerprint) const {
  const nlohmann::json kept_value = kept(project, server);
  if (kept_value == fingerprint) return Answer::kApproved;
  if (kept_value == nlohmann::json{{"declined", fingerprint}}) return Answer::kDeclined;
  return Answer::kNone;
}

util::Status ApprovalStore::approve(const std::filesystem::path& project, const std::string& server,
                                    const std::string& fingerprint) {
  return keep(project, server, fingerprint);
}

util::Status ApprovalStore::decline(const std::filesystem::path& project, const std::string& server,
                                    const std::string& fingerprint) {
  return keep(project, server, {{"declined", fingerprint}});
}

}  // namespace nib::mcp
