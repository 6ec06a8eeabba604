#include "app/mcp_setup.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "mcp/approval_store.hpp"
#include "mcp/json_file.hpp"
#include "mcp/limits.hpp"
#include "process/subprocess.hpp"

namespace nib::app {
namespace {

struct McpSettings {
  std::chrono::milliseconds startup_timeout = mcp::kDefaultStartupTimeout;
  std::chrono::milliseconds call_timeout = mcp::kDefaultCallTimeout;
  std::vector<std::string> allow;  // from the user's settings only
};

McpSettings mcp_settings(const Configuration& configuration, std::vector<std::string>& problems) {
  McpSettings settings;
  for (const SettingsSource& source : configuration.sources) {
    if (source.claude || !source.document.is_object()) continue;
    const auto section = source.document.find("mcp");
    if (section == source.document.end()) continue;
    for (const auto& [field, target] : {std::pair{"startupTimeoutMs", &settings.startup_timeout},
                                        std::pair{"callTimeoutMs", &settings.call_timeout}}) {
      const auto value = section->find(field);
      if (value == section->end()) continue;
      if (!value->is_number_integer() || value->get<std::int64_t>() <= 0) {
        problems.push_back(source.file.string() + ": mcp." + field +
                           " must be a positive number of milliseconds; the default is used");
        continue;
      }
      *target = std::chrono::milliseconds(value->get<std::int64_t>());
    }
    const auto allow = section->find("allow");
    if (allow == section->end()) continue;
    if (source.scope != SettingsSource::Scope::kUser) {
      problems.push_back(source.file.string() +
                         ": mcp.allow is only read from the user's settings (a project must not "
                         "approve its own servers)");
      continue;
    }
    if (!allow->is_array()) continue;
    for (const auto& name : *allow) {
      if (name.is_string()) settings.allow.push_back(name.get<std::string>());
    }
  }
  return settings;
}

// Adds `found`, replacing servers of the same name.
void merge(std::vector<mcp::ServerConfig>& servers, std::vector<mcp::ServerConfig> found) {
  for (mcp::ServerConfig& config : found) {
    const auto same = std::find_if(servers.begin(), servers.end(),
                                   [&](const auto& known) { return known.name == config.name; });
    if (same != servers.end()) {
      *same = std::move(config);
    } else {
      servers.push_back(std::move(config));
    }
  }
}

// The "mcpServers" of a file ({"mcpServers": {...}}); a failure names the file.
util::Result<std::vector<mcp::ServerConfig>> servers_of_file(const std::filesystem::path& file,
                                                             bool from_project) {
  auto document = mcp::read_json_file(file);
  if (!document.ok())
    return util::Result<std::vector<mcp::ServerConfig>>::failure(document.error());
  const auto servers = document.value().find("mcpServers");
  if (servers == document.value().end()) return std::vector<mcp::ServerConfig>{};
  return mcp::parse_servers(*servers, file, from_project);
}

bool named(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end() ||
         std::find(names.begin(), names.end(), "all") != names.end();
}

std::string approve_how(const std::string& name) {
  return "approve it with `nib mcp approve " + name +
         "` (remembered for this project) or --mcp-allow " + name;
}

std::string not_started(const mcp::ServerConfig& config, const std::string& why) {
  return "the MCP server " + config.name + " of " + config.file.string() +
         " was not started: " + why;
}

std::vector<std::string> current_environment(const std::vector<std::string>& withheld) {
  return process::merge_environment(environ, {}, withheld);
}

}  // namespace

std::filesystem::path user_mcp_file(const std::filesystem::path& user_config_dir) {
  return user_config_dir / "mcp.json";
}

std::filesystem::path project_mcp_file(const std::filesystem::path& cwd) {
  return cwd / ".mcp.json";
}

std::filesystem::path approvals_file(const std::filesystem::path& user_config_dir) {
  return user_config_dir / "mcp-approvals.json";
}

util::Result<McpCatalog> find_mcp_servers(const Configuration& configuration,
                                          const std::filesystem::path& user_config_dir,
                                          const std::filesystem::path& cwd,
                                          const std::vector<std::string>& extra_files) {
  McpCatalog catalog;
  const auto add_file = [&](const std::filesystem::path& file, bool from_project) {
    auto found = servers_of_file(file, from_project);
    if (found.ok()) {
      merge(catalog.servers, std::move(found.value()));
    } else {
      catalog.problems.push_back(found.error() + "; its MCP servers are left out");
    }
  };
  const auto add_settings = [&](bool project_scope) {
    for (const SettingsSource& source : configuration.sources) {
      if (source.claude || (source.scope != SettingsSource::Scope::kUser) != project_scope) {
        continue;
      }
      const auto servers = source.document.find("mcpServers");
      if (servers == source.document.end()) continue;
      auto found = mcp::parse_servers(*servers, source.file, project_scope);
      if (found.ok()) {
        merge(catalog.servers, std::move(found.value()));
      } else {
        catalog.problems.push_back(found.error() + "; the MCP servers of this file are left out");
      }
    }
  };
  add_file(user_mcp_file(user_config_dir), false);
  add_settings(false);
  add_file(project_mcp_file(cwd), true);
  add_settings(true);
  for (const std::string& file : extra_files) {
    auto found = servers_of_file(file, false);
    if (!found.ok()) return util::Result<McpCatalog>::failure(found.error());
    merge(catalog.servers, std::move(found.value()));
  }
  return catalog;
}

util::Result<McpStart> start_mcp_servers(const CliOptions& options, const RunContext& context,
                                         core::ToolRegistry& registry) {
  auto catalog = find_mcp_servers(*context.configuration, context.user_config_dir, context.cwd,
                                  options.mcp_config);
  if (!catalog.ok()) return util::Result<McpStart>::failure(catalog.error());
  McpStart start;
  start.notices = std::move(catalog.value().problems);
  if (catalog.value().servers.empty()) return start;
  const McpSettings settings = mcp_settings(*context.configuration, start.notices);
  const mcp::ApprovalStore approvals(approvals_file(context.user_config_dir));
  std::vector<mcp::ServerConfig> approved;
  std::vector<mcp::ServerStatus> not_approved;
  for (mcp::ServerConfig& config : catalog.value().servers) {
    const bool allowed = !config.from_project || named(options.mcp_allow, config.name) ||
                         named(settings.allow, config.name);
    const auto answer = allowed ? mcp::ApprovalStore::Answer::kApproved
                                : approvals.answer(context.cwd, config.name, config.fingerprint);
    if (answer == mcp::ApprovalStore::Answer::kApproved) {
      approved.push_back(std::move(config));
      continue;
    }
    mcp::ServerStatus status{.name = config.name,
                             .state = mcp::ServerState::kNotApproved,
                             .detail = approve_how(config.name),
                             .file = config.file,
                             .transport = mcp::describe_transport(config)};
    if (answer == mcp::ApprovalStore::Answer::kDeclined) {
      status.detail = "you declined it for this project; " + status.detail;
      start.notices.push_back(not_started(config, status.detail));
    } else {
      start.awaiting.push_back(config);
    }
    not_approved.push_back(std::move(status));
  }
  const EnvLookup env = context.env;
  mcp::ServerSetOptions set_options{
      .registry = &registry,
      .connection = {settings.startup_timeout, settings.call_timeout, &core::steady_clock(),
                     mcp::real_transports(context.cwd,
                                          current_environment(context.withheld_environment))},
      .variables = [env](const std::string& name) { return env(name.c_str()); },
      .on_change = {}};
  start.servers = std::make_unique<mcp::ServerSet>(std::move(approved), std::move(not_approved),
                                                   std::move(set_options));
  start.servers->start();
  return start;
}

std::string not_approved_notice(const mcp::ServerConfig& config) {
  return not_started(config,
                     "it is the project's and not approved yet; " + approve_how(config.name));
}

util::Status remember_mcp_answer(const RunContext& context, const mcp::ServerConfig& config,
                                 bool approved) {
  mcp::ApprovalStore store(approvals_file(context.user_config_dir));
  return approved ? store.approve(context.cwd, config.name, config.fingerprint)
                  : store.decline(context.cwd, config.name, config.fingerprint);
}

}  // namespace nib::app
