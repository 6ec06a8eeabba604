#pragma once
// A file of MCP servers by scope, in the shape of Claude Code's ~/.claude.json, which nib's user
// mcp.json shares so that one reader reads both:
//   {"mcpServers": {...},                      the user's servers, in every project
//    "projects": {"/abs/project": {
//        "mcpServers": {...},                  the user's servers in that project only (local
//                                              scope: private to the user and the project)
//        "enabledMcpjsonServers": [...], ...}}} Claude Code's answers (claude_answers.hpp)
// The key of a project is its absolute directory, as Claude Code writes it. Only these keys
// are kept, the rest skipped as the file is read: ~/.claude.json is Claude Code's, holds much
// else (it has held its history) and may be tens of megabytes. Thread-safe as the file system
// is.

#include <cstdint>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace nib::mcp {

// Claude Code's file of settings and state, <home>/.claude.json.
std::filesystem::path claude_state_file(const std::filesystem::path& home);

// Past this size a file is not read (it would hold up the start for seconds) but reported.
inline constexpr std::uintmax_t kMaxScopedServersFileBytes = 64ull << 20;

struct ScopedServers {
  // {"mcpServers": {...}} from the top level, or {}.
  nlohmann::json everywhere = nlohmann::json::object();
  // The project's entry with only its "mcpServers" and Claude Code's answers, or {}.
  nlohmann::json this_project = nlohmann::json::object();
};

// What `file` holds for `project` (see above): none when it does not exist; a failure names the
// file and says what is wrong ("not valid JSON: ...", "must hold a JSON object", too large).
util::Result<ScopedServers> read_scoped_servers(const std::filesystem::path& file,
                                                const std::filesystem::path& project);

// The "mcpServers" object of `document` (such a file as a whole) for the top level, or for the
// entry of `project` (local scope), made when missing, to change it; a failure when the
// document holds something else than an object on the way.
util::Result<nlohmann::json*> scope_servers(nlohmann::json& document,
                                            const std::optional<std::filesystem::path>& project);

}  // namespace nib::mcp
