#include "app/mcp_setup.hpp"

#include <unistd.h>

#include <algorithm>

#include "app/plugin_setup.hpp"
#include "mcp/approval_store.hpp"
#include "mcp/scoped_servers.hpp"
#include "mcp/server_approval.hpp"
#include "process/subprocess.hpp"
#include "util/path_within.hpp"

namespace nib::app {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> current_environment(const std::vector<std::string>& withheld) {
  return process::merge_environment(environ, {}, withheld);
}

// A copy for a source to own, so that the sources outlive nothing they were made from.
std::shared_ptr<const nlohmann::json> owned_copy(const nlohmann::json& document) {
  return std::make_shared<const nlohmann::json>(document);
}

// `file` as the user knows it: "~/..." under the home directory.
std::string from_home(const fs::path& file, const fs::path& home) {
  if (home.empty() || !util::is_strictly_within(home, file)) return file.string();
  return "~/" + file.lexically_relative(home).string();
}

// `file` as the user knows it in the project: relative to it.
std::string in_project(const fs::path& file, const fs::path& project) {
  return util::is_strictly_within(project, file) ? file.lexically_relative(project).string()
                                                 : file.string();
}

std::string shown(const SettingsSource& source, const RunContext& context) {
  return source.scope == SettingsSource::Scope::kUser ? from_home(source.file, context.places.home)
                                                      : in_project(source.file, context.cwd);
}

// A file of servers by scope (mcp/scoped_servers.hpp), read once for both of its scopes.
struct ScopedFile {
  fs::path file;  // empty: there is no such place (no home directory)
  std::string shown;
  mcp::ScopedServers read;  // empty when it could not be read (a problem says why)
};

ScopedFile read_scoped_file(McpSources& found, const fs::path& file, const RunContext& context,
                            const std::string& left_out) {
  ScopedFile scoped{file, from_home(file, context.places.home), {}};
  if (file.empty()) return scoped;
  auto read = mcp::read_scoped_servers(file, context.cwd);
  if (read.ok()) {
    scoped.read = std::move(read.value());
  } else {
    found.problems.push_back(read.error() + "; " + left_out);
  }
  return scoped;
}

// One scope of `file`: its top level, or its entry for this project (`note` says which).
void add_scope(McpSources& found, const ScopedFile& file, const nlohmann::json& scope,
               const std::string& note) {
  if (file.file.empty()) return;
  found.sources.push_back(
      {.file = file.file, .document = owned_copy(scope), .origin = file.shown + note});
}

// nib's settings files of the user, or of the project (`project_scope`).
void add_settings(McpSources& found, const RunContext& context, bool project_scope) {
  for (const SettingsSource& source : context.configuration->sources) {
    if (source.claude || (source.scope != SettingsSource::Scope::kUser) != project_scope) continue;
    found.sources.push_back({.file = source.file,
                             .from_project = project_scope,
                             .document = owned_copy(source.document),
                             .origin = shown(source, context)});
  }
}

// The files named on the command line and the servers a client brings: asked for, so approved.
void add_named(McpSources& found, const std::vector<std::string>& extra_files,
               const nlohmann::json& client_servers) {
  for (const std::string& file : extra_files) {
    found.sources.push_back({.file = file, .named = true});
  }
  if (!client_servers.is_null()) {
    found.sources.push_back(
        {.file = "the client's session", .document = owned_copy(client_servers), .named = true});
  }
}

// The servers of the plugins the settings enable, each under its plugin's name. One the project
// had a say in (Plugin::from_project) waits for approval, as the project's .mcp.json does.
void add_plugins(McpSources& found, const RunContext& context) {
  if (!context.configuration->plugins) return;
  for (const extensions::Plugin& plugin : context.configuration->plugins->plugins) {
    for (const extensions::PluginConfig& config : plugin.mcp_servers) {
      found.sources.push_back({.file = config.file,
                               .from_project = plugin.from_project,
                               .document = std::make_shared<const nlohmann::json>(
                                   plugin_servers_document(plugin, config)),
                               .origin = "plugin " + plugin.id()});
    }
  }
}

// Where Claude Code records its answers about the project's .mcp.json servers: its settings
// files and the project's entry of ~/.claude.json.
std::vector<mcp::ClaudeAnswers> claude_answers(const RunContext& context,
                                               const ScopedFile& claude_state) {
  std::vector<mcp::ClaudeAnswers> answers;
  for (const SettingsSource& source : context.configuration->sources) {
    if (!source.claude) continue;
    answers.push_back(
        mcp::read_claude_answers(shown(source, context), source.document, source.written_by_user));
  }
  answers.push_back(
      mcp::read_claude_answers(claude_state.shown, claude_state.read.this_project, true));
  return answers;
}

// The servers `found` configure; the files it left out are among the problems.
util::Result<mcp::ServerCatalog> catalog_of(const McpSources& found) {
  auto catalog = mcp::find_servers(found.sources);
  if (catalog.ok()) {
    auto& problems = catalog.value().problems;
    problems.insert(problems.begin(), found.problems.begin(), found.problems.end());
  }
  return catalog;
}

}  // namespace

McpSources mcp_config_sources(const RunContext& context,
                              const std::vector<std::string>& extra_files) {
  McpSources found;
  const fs::path& home = context.places.home;
  const ScopedFile claude =
      read_scoped_file(found, home.empty() ? fs::path() : mcp::claude_state_file(home), context,
                       "Claude Code's MCP servers and answers in it are left out");
  const ScopedFile nib = read_scoped_file(found, mcp::user_servers_file(context.user_config_dir),
                                          context, "the MCP servers of this file are left out");
  // The user's, everywhere.
  add_scope(found, claude, claude.read.everywhere, "");
  add_scope(found, nib, nib.read.everywhere, "");
  add_settings(found, context, false);
  add_plugins(found, context);
  // The project's: they run once approved.
  const fs::path project_file = mcp::project_servers_file(context.cwd);
  found.sources.push_back({.file = project_file,
                           .from_project = true,
                           .origin = in_project(project_file, context.cwd)});
  add_settings(found, context, true);
  // The user's in this project only, over the project's own, as in Claude Code.
  add_scope(found, claude, claude.read.this_project, " (local scope)");
  add_scope(found, nib, nib.read.this_project, " (local scope)");
  add_named(found, extra_files, context.client_servers);
  found.claude_answers = claude_answers(context, claude);
  return found;
}

util::Result<mcp::ServerCatalog> find_mcp_servers(const RunContext& context,
                                                  const std::vector<std::string>& extra_files) {
  return catalog_of(mcp_config_sources(context, extra_files));
}

util::Result<McpStart> start_mcp_servers(const CliOptions& options, const RunContext& context,
                                         core::ToolRegistry& registry) {
  const McpSources found = mcp_config_sources(context, options.mcp_config);
  auto catalog = catalog_of(found);
  if (!catalog.ok()) return util::Result<McpStart>::failure(catalog.error());
  McpStart start;
  start.notices = std::move(catalog.value().problems);
  if (catalog.value().servers.empty()) return start;
  const mcp::McpSettings settings = mcp::read_mcp_settings(found.sources);
  start.notices.insert(start.notices.end(), settings.problems.begin(), settings.problems.end());
  // 0 KB means always: the registry's own 0 means never, so the smallest threshold stands in.
  registry.defer_added_tools_over(std::max<std::size_t>(settings.tool_search_above_bytes, 1));
  std::vector<std::string> allowed = options.mcp_allow;
  allowed.insert(allowed.end(), settings.allow.begin(), settings.allow.end());
  mcp::ServerApprovals approvals =
      mcp::sort_by_approval(std::move(catalog.value().servers), allowed,
                            mcp::ApprovalStore(mcp::approvals_file(context.user_config_dir)),
                            found.claude_answers, context.cwd);
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
