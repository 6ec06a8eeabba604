#pragma once
// One MCP server's configuration in Claude Code's format (the "mcpServers" object of .mcp.json,
// ~/.config/nib/mcp.json, settings.json, --mcp-config):
//   {"name": {"command": "npx", "args": ["-y", "pkg"], "env": {"K": "v"}, "cwd": "dir"}}
//   {"name": {"type": "http", "url": "https://...", "headers": {"Authorization": "Bearer
//   ${TOKEN}"}}}
// plus nib's own per-server "startupTimeoutMs" and "callTimeoutMs". `${VAR}` and
// `${VAR:-default}` are expanded in command, args, env values, cwd, url and header values when
// the server is started; an unset variable without a default is an error naming it. Pure
// functions; thread-safe.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace nib::mcp {

using Pairs = std::vector<std::pair<std::string, std::string>>;
// Looks up an environment variable; nullopt when unset.
using VariableLookup = std::function<std::optional<std::string>(const std::string&)>;

struct ServerConfig {
  enum class Kind { kStdio, kHttp };
  std::string name;
  Kind kind = Kind::kStdio;
  std::string command;  // stdio
  std::vector<std::string> args;
  Pairs env;
  std::string cwd;  // "" : the working directory
  std::string url;  // http
  Pairs headers;
  std::optional<std::chrono::milliseconds> startup_timeout;
  std::optional<std::chrono::milliseconds> call_timeout;
  // Where it came from, and whether that place is the project's (shared with a repository:
  // the server runs only once the user approved it, approval_store.hpp).
  std::filesystem::path file;
  bool from_project = false;
  // Where it came from, for people, as `nib mcp list` and /mcp name it: the file as the user
  // knows it, and what else tells this entry apart: "~/.claude.json (local scope)",
  // ".mcp.json (approved in .claude/settings.local.json)". Set by the catalog and the approval.
  std::string origin;
  // A hash of the entry as written (before expansion), so an approval is for this very
  // command: a changed command or URL must be approved again.
  std::string fingerprint;
};

// Reads every entry of an "mcpServers" object; a failure names `file`, the server and what is
// wrong with it.
util::Result<std::vector<ServerConfig>> parse_servers(const nlohmann::json& servers,
                                                      const std::filesystem::path& file,
                                                      bool from_project);

// `text` with ${VAR} and ${VAR:-default} replaced; a failure names the unset variable.
util::Result<std::string> expand_variables(const std::string& text, const VariableLookup& lookup);

// `config` with every expandable field expanded (see above).
util::Result<ServerConfig> expand_config(ServerConfig config, const VariableLookup& lookup);

// The entry as `nib mcp get` shows it (and as `nib mcp add` writes it).
nlohmann::json to_json(const ServerConfig& config);

// How the server is reached, for people: "stdio: npx -y pkg" or "http: https://...". Never
// names the env values or the headers (they may hold secrets).
std::string describe_transport(const ServerConfig& config);

}  // namespace nib::mcp
