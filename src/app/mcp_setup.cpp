#include "app/mcp_setup.hpp"

#include <unistd.h>

#include <algorithm>

#include "mcp/approval_store.hpp"
#include "mcp/server_approval.hpp"
#include "process/subprocess.hpp"

namespace nib::app {
namespace {

std::vector<std::string> current_environment(const std::vector<std::string>& withheld) {
  return process::merge_environment(environ, {}, withheld);
}

}  // namespace

std::vector<mcp::ConfigSource> mcp_config_sources(const Configuration& configuration,
                                                  const std::filesystem::path& user_config_dir,
                                                  const std::filesystem::path& cwd,
                                                  const std::vector<std::string>& extra_files,
                                                  const nlohmann::json* client_servers) {
  std::vector<mcp::ConfigSource> sources;
  const auto add_settings = [&](bool project_scope) {
    for (const SettingsSource& source : configuration.sources) {
      if (!source.claude && (source.scope != SettingsSource::Scope::kUser) == project_scope) {
        sources.push_back(
            {.file = source.file, .from_project = project_scope, .settings = &source.document});
      }
    }
  };
  sources.push_back({.file = mcp::user_servers_file(user_config_dir)});
  add_settings(false);
  sources.push_back({.file = mcp::project_servers_file(cwd), .from_project = true});
  add_settings(true);
  for (const std::string& file : extra_files) sources.push_back({.file = file, .named = true});
  if (client_servers != nullptr && !client_servers->is_null()) {
    sources.push_back({.file = "the client's session", .settings = client_servers, .named = true});
  }
  return sources;
}

util::Result<mcp::ServerCatalog> find_mcp_servers(const RunContext& context,
                                                  const std::vector<std::string>& extra_files) {
  return mcp::find_servers(mcp_config_sources(*context.configuration, context.user_config_dir,
                                              context.cwd, extra_files, &context.client_servers));
}

util::Result<McpStart> start_mcp_servers(const CliOptions& options, const RunContext& context,
                                         core::ToolRegistry& registry) {
  const std::vector<mcp::ConfigSource> sources =
      mcp_config_sources(*context.configuration, context.user_config_dir, context.cwd,
                         options.mcp_config, &context.client_servers);
  auto catalog = mcp::find_servers(sources);
  if (!catalog.ok()) return util::Result<McpStart>::failure(catalog.error());
  McpStart start;
  start.notices = std::move(catalog.value().problems);
  if (catalog.value().servers.empty()) return start;
  const mcp::McpSettings settings = mcp::read_mcp_settings(sources);
  start.notices.insert(start.notices.end(), settings.problems.begin(), settings.problems.end());
  // 0 KB means always: the registry's own 0 means never, so the smallest threshold stands in.
  registry.defer_added_tools_over(std::max<std::size_t>(settings.tool_search_above_bytes, 1));
  std::vector<std::string> allowed = options.mcp_allow;
  allowed.insert(allowed.end(), settings.allow.begin(), settings.allow.end());
  mcp::ServerApprovals approvals = mcp::sort_by_approval(
      std::move(catalog.value().servers), allowed,
      mcp::ApprovalStore(mcp::approvals_file(context.user_config_dir)), context.cwd);
  start.notices.insert(start.notices.end(), approvals.notices.begin(), approvals.notices.end());
  start.awaiting = std::move(approvals.awaiting);
  const util::EnvLookup env = context.env;
  mcp::ServerSetOptions set_options{
      .registry = &registry,
      .connection = {settings.startup_timeout, settings.call_timeout, &core::steady_clock(),
                     mcp::real_transports(context.cwd,
                                          current_environment(context.withheld_environment))},
      .variables = [env](const std::string& name) { return env(name.c_str()); },
      .on_change = {}};
  start.servers = std::make_unique<mcp::ServerSet>(
      std::move(approvals.approved), std::move(approvals.not_approved), std::move(set_options));
  start.servers->start();
  return start;
}

util::Status remember_mcp_answer(const RunContext& context, const mcp::ServerConfig& config,
                                 bool approved) {
  mcp::ApprovalStore store(mcp::approvals_file(context.user_config_dir));
  return approved ? store.approve(context.cwd, config.name, config.fingerprint)
                  : store.decline(context.cwd, config.name, config.fingerprint);
}

}  // namespace nib::app
