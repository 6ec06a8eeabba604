#include "mcp/server_catalog.hpp"

#include <algorithm>

#include "process/json_file.hpp"

namespace nib::mcp {
namespace {

using Servers = std::vector<ServerConfig>;

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

// The servers of `source`'s "mcpServers" (none when it has none); a failure names its file.
util::Result<Servers> servers_of(const ConfigSource& source) {
  nlohmann::json read;
  if (source.settings == nullptr) {
    auto document = process::read_json_file(source.file);
    if (!document.ok()) return util::Result<Servers>::failure(document.error());
    read = std::move(document.value());
  }
  const nlohmann::json& document = source.settings != nullptr ? *source.settings : read;
  if (!document.is_object()) return Servers{};
  const auto servers = document.find("mcpServers");
  if (servers == document.end()) return Servers{};
  return parse_servers(*servers, source.file, source.from_project);
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
    if (found.ok()) {
      merge(catalog.servers, std::move(found.value()));
    } else if (source.named) {
      return util::Result<ServerCatalog>::failure(found.error());
    } else {
      catalog.problems.push_back(found.error() + "; the MCP servers of this file are left out");
    }
  }
  return catalog;
}

}  // namespace nib::mcp
