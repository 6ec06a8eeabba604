#pragma once
// Claude Code's answers about the servers of a project's .mcp.json, as it records them in its
// settings files and in the project's entry of ~/.claude.json:
//   "enabledMcpjsonServers": ["github"]     approved by name
//   "disabledMcpjsonServers": ["scratch"]   declined by name
//   "enableAllProjectMcpServers": true      every one approved
// so that a server a Claude Code user already answered for is not asked about again. Trust:
// a refusal counts wherever it is written (it starts nothing); an approval only where the user
// wrote it (the app says which: ~/.claude/settings.json, ~/.claude.json, and the project's
// .claude/settings.local.json when git ignores it), never in the project's committed
// .claude/settings.json, since a cloned repository must not start a program by itself (Claude
// Code honours approvals there once the folder is trusted; nib does not). A refusal wins over
// an approval, as in Claude Code. By name only, as Claude Code keeps them: a changed entry keeps
// its answer (nib's own answers are for the very entry, approval_store.hpp). Pure;
// thread-safe.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "mcp/approval_store.hpp"

namespace nib::mcp {

inline constexpr std::string_view kEnabledServersKey = "enabledMcpjsonServers";
inline constexpr std::string_view kDisabledServersKey = "disabledMcpjsonServers";
inline constexpr std::string_view kEnableAllServersKey = "enableAllProjectMcpServers";

// What one place records.
struct ClaudeAnswers {
  std::string place;  // as people are told of it: ".claude/settings.local.json"
  // False for the project's committed settings: its approvals are not honoured.
  bool written_by_user = true;
  std::vector<std::string> enabled;
  std::vector<std::string> disabled;
  bool enable_all = false;
};

// The answers `document` records (a settings file, or a project's entry of ~/.claude.json).
// Values of another type are passed over: the file is Claude Code's, and an answer nib cannot
// read only means it asks.
ClaudeAnswers read_claude_answers(std::string place, const nlohmann::json& document,
                                  bool written_by_user);

struct ClaudeAnswer {
  ApprovalStore::Answer answer = ApprovalStore::Answer::kNone;
  std::string place;  // where it was recorded
};

// What `places` say of the .mcp.json server `name` (see above); the first place that declines
// it, else the first that approves it, is named.
ClaudeAnswer claude_answer(const std::vector<ClaudeAnswers>& places, const std::string& name);

}  // namespace nib::mcp
