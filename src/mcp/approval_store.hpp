#pragma once
// The user's approvals of project MCP servers (from .mcp.json or project settings), so that a
// cloned repository never starts a program by itself: a server runs once the user approved it,
// remembered per project directory and per server fingerprint (server_config.hpp), so a changed
// command must be approved again. A "no" is remembered the same way, so the interactive mode
// does not ask again about the same entry. Kept in one JSON file of the user's,
//   {"<project directory>": {"<server>": "<fingerprint>" | {"declined": "<fingerprint>"}}},
// written atomically (process/json_file.hpp). Thread-safe as the file system is; one writer at a
// time is assumed (a person running `nib mcp approve`).

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace nib::mcp {

// Where the approvals are kept: <user config dir>/mcp-approvals.json.
std::filesystem::path approvals_file(const std::filesystem::path& user_config_dir);

class ApprovalStore {
 public:
  explicit ApprovalStore(std::filesystem::path file) : file_(std::move(file)) {}

  enum class Answer {
    kNone,      // never asked about this very entry (or it changed since)
    kApproved,  // the user said yes to it
    kDeclined,  // the user said no to it (approve() later replaces that)
  };
  // What the user answered for `server` of `project` whose entry has `fingerprint` (one read of
  // the file).
  Answer answer(const std::filesystem::path& project, const std::string& server,
                const std::string& fingerprint) const;
  util::Status approve(const std::filesystem::path& project, const std::string& server,
                       const std::string& fingerprint);
  util::Status decline(const std::filesystem::path& project, const std::string& server,
                       const std::string& fingerprint);

  const std::filesystem::path& file() const { return file_; }

 private:
  // What is kept for `server` of `project`, or null.
  nlohmann::json kept(const std::filesystem::path& project, const std::string& server) const;
  util::Status keep(const std::filesystem::path& project, const std::string& server,
                    nlohmann::json value);

  std::filesystem::path file_;
};

}  // namespace nib::mcp
