#include "mcp/server_catalog.hpp"

#include <algorithm>

#include "process/json_file.hpp"

namespace nib::mcp {
namespace {

using Servers = std::vector<ServerConfig>;

// What one source holds: the servers nib can run, and what is wrong with each other entry.
struct Found {
  Servers servers;
  std::vector<std::string> problems;
};

// Adds `found`, replacing servers of the same name.
void merge(Servers& servers, Servers found) {
  for (ServerConfig& config : found) {
    const auto same = std::find_if(servers.begin(), servers.end(),
                                   [&](const auto& known) { return known.name == config.name; });
    if (same != servers.end()) {
      *same = std::move(config);
    } else {
      servers.push_back(std::move(config));
    }
  }
}

// Each entry of `servers` read by itself, so that one nib cannot run (an SSE server Claude Code
// was given) leaves the others be: its problem is said instead.
Found each_entry(const nlohmann::json& servers, const ConfigSource& source) {
  Found found;
  for (const auto& [name, entry] : servers.items()) {
    auto parsed = parse_servers({{name, entry}}, source.file, source.from_project);
    if (!parsed.ok()) {
      found.problems.push_back(parsed.error());
      continue;
    }
    for (ServerConfig& config : parsed.value()) {
      config.origin = source.origin.empty() ? source.file.string() : source.origin;
      found.servers.push_back(std::move(config));
    }
  }
  return found;
}

// The servers of `source`'s "mcpServers" (none when it has none); a failure names its file.
util::Result<Found> servers_of(const ConfigSource& source) {
  nlohmann::json read;
  if (source.document == nullptr) {
    auto document = process::read_json_file(source.file);
    if (!document.ok()) return util::Result<Found>::failure(document.error());
    read = std::move(document.value());
  }
  const nlohmann::json& document = source.document != nullptr ? *source.document : read;
  if (!document.is_object()) return Found{};
  const auto servers = document.find("mcpServers");
  if (servers == document.end()) return Found{};
  if (!servers->is_object()) {
    // parse_servers says what is wrong with it.
    return util::Result<Found>::failure(
        parse_servers(*servers, source.file, source.from_project).error());
  }
  return each_entry(*servers, source);
}

}  // namespace

std::filesystem::path user_servers_file(const std::filesystem::path& user_config_dir) {
  return user_config_dir / "mcp.json";
}

std::filesystem::path project_servers_file(const std::filesystem::path& project) {
  return project / ".mcp.json";
}

util::Result<ServerCatalog> find_servers(const std::vector<ConfigSource>& sources) {
  ServerCatalog catalog;
  for (const ConfigSource& source : sources) {
    auto found = servers_of(source);
    if (!found.ok()) {
      if (source.named) return util::Result<ServerCatalog>::failure(found.error());
      catalog.problems.push_back(found.error() + "; the MCP servers of this file are left out");
      continue;
    }
    for (const std::string& problem : found.value().problems) {
      if (source.named) return util::Result<ServerCatalog>::failure(problem);
      catalog.problems.push_back(problem + "; this server is left out");
    }
    merge(catalog.servers, std::move(found.value().servers));
  }
  return catalog;
}

}  // namespace nib::mcp
