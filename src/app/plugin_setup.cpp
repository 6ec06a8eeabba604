#include "app/plugin_setup.hpp"

#include <nlohmann/json.hpp>

#include "extensions/agent_catalog.hpp"
#include "extensions/command_catalog.hpp"
#include "extensions/skill_catalog.hpp"
#include "mcp/server_config.hpp"

namespace nib::app {
namespace {

namespace fs = std::filesystem;

// Why `plugin`'s hooks or MCP servers cannot be used, or nothing: checked by their own
// parsers, as a run would read them.
std::optional<extensions::Problem> broken_part(const extensions::Plugin& plugin) {
  for (const extensions::PluginConfig& config : plugin.hooks) {
    const auto parsed = hooks::parse_hook_config({{config.file, &config.value}});
    if (!parsed.ok()) return extensions::Problem{config.file, 0, parsed.error()};
  }
  for (const extensions::PluginConfig& config : plugin.mcp_servers) {
    const auto parsed = mcp::parse_servers(plugin_servers_document(plugin, config)["mcpServers"],
                                           config.file, false);
    if (!parsed.ok()) return extensions::Problem{config.file, 0, parsed.error()};
  }
  return std::nullopt;
}

// The definitions `plugin` brings, loaded as a run loads them (its folders only).
extensions::ExtensionRoots roots_of(const extensions::Plugin& plugin) {
  extensions::ExtensionRoots roots;
  roots.plugins = {plugin};
  return roots;
}

void list_line(std::ostream& out, const char* kind, const std::vector<std::string>& names) {
  if (names.empty()) return;
  out << "  " << kind << ":";
  for (const std::string& name : names) out << ' ' << name;
  out << '\n';
}

void list_plugin(const extensions::Plugin& plugin, std::ostream& out,
                 std::vector<std::string>& problems) {
  out << plugin.id() << (plugin.version.empty() ? "" : " " + plugin.version) << "  "
      << plugin.root.string() << '\n';
  if (!plugin.description.empty()) out << "  " << plugin.description << '\n';
  const extensions::ExtensionRoots roots = roots_of(plugin);
  std::vector<std::string> names;
  const extensions::CommandCatalog commands = extensions::load_commands(roots, {});
  for (const auto& command : commands.commands) names.push_back("/" + command.qualified_name());
  list_line(out, "commands", names);
  names.clear();
  const extensions::AgentCatalog agents = extensions::load_agent_definitions(roots);
  for (const auto& agent : agents.agents) {
    if (agent.origin == extensions::Origin::kPlugin) names.push_back(agent.name);
  }
  list_line(out, "agents", names);
  names.clear();
  const extensions::SkillCatalog skills = extensions::load_skills(roots);
  for (const auto& skill : skills.skills) names.push_back(skill.name);
  list_line(out, "skills", names);
  names.clear();
  for (const extensions::PluginConfig& config : plugin.hooks) {
    for (const auto& [event, entries] : config.value.items()) names.push_back(event);
  }
  list_line(out, "hooks", names);
  names.clear();
  for (const extensions::PluginConfig& config : plugin.mcp_servers) {
    for (const auto& [server, entry] : config.value.items()) {
      names.push_back(plugin_server_name(plugin, server));
    }
  }
  list_line(out, "MCP servers", names);
  for (const auto* found : {&commands.problems, &agents.problems, &skills.problems}) {
    for (const extensions::Problem& problem : *found) problems.push_back(problem.text());
  }
}

}  // namespace

std::shared_ptr<const extensions::PluginCatalog> load_claude_plugins(
    const std::vector<extensions::SettingsDocument>& claude_settings, const fs::path& home,
    const fs::path& project) {
  extensions::PluginCatalog catalog = extensions::load_plugins(home, project, claude_settings);
  std::erase_if(catalog.plugins, [&](const extensions::Plugin& plugin) {
    std::optional<extensions::Problem> broken = broken_part(plugin);
    if (!broken) return false;
    broken->message = plugin.id() + ": " + broken->message + "; the plugin is left out";
    catalog.problems.push_back(std::move(*broken));
    return true;
  });
  return std::make_shared<const extensions::PluginCatalog>(std::move(catalog));
}

std::vector<hooks::HookSource> plugin_hook_sources(const extensions::PluginCatalog& catalog) {
  std::vector<hooks::HookSource> sources;
  for (const extensions::Plugin& plugin : catalog.plugins) {
    for (const extensions::PluginConfig& config : plugin.hooks) {
      // Scripts read the plugin's folder from the environment too, as Claude Code exports it.
      sources.push_back(
          {config.file, &config.value, {{"CLAUDE_PLUGIN_ROOT", plugin.root.string()}}});
    }
  }
  return sources;
}

std::string plugin_server_name(const extensions::Plugin& plugin, const std::string& server) {
  return "plugin_" + plugin.name + "_" + server;
}

nlohmann::json plugin_servers_document(const extensions::Plugin& plugin,
                                       const extensions::PluginConfig& config) {
  nlohmann::json servers = nlohmann::json::object();
  for (const auto& [server, entry] : config.value.items()) {
    nlohmann::json renamed = entry;
    if (renamed.is_object()) {
      nlohmann::json& env = renamed["env"];
      if (env.is_null()) env = nlohmann::json::object();
      if (env.is_object() && !env.contains("CLAUDE_PLUGIN_ROOT")) {
        env["CLAUDE_PLUGIN_ROOT"] = plugin.root.string();
      }
      // An HTTP server has no environment to give.
      if (renamed.contains("url") && env.size() == 1) renamed.erase("env");
    }
    servers[plugin_server_name(plugin, server)] = std::move(renamed);
  }
  return {{"mcpServers", std::move(servers)}};
}

int run_plugins_command(const extensions::PluginCatalog& catalog, std::ostream& out,
                        std::ostream& err) {
  std::vector<std::string> problems;
  if (catalog.plugins.empty()) {
    out << "No Claude Code plugins are enabled (enabledPlugins in ~/.claude/settings.json or "
           ".claude/settings.json).\n";
  }
  for (const extensions::Plugin& plugin : catalog.plugins) list_plugin(plugin, out, problems);
  for (const extensions::Problem& problem : catalog.problems) {
    err << "nib: a plugin was left out or changed: " << problem.text() << '\n';
  }
  for (const std::string& problem : problems) {
    err << "nib: a plugin's definition was left out or changed: " << problem << '\n';
  }
  return catalog.problems.empty() && problems.empty() ? 0 : 1;
}

}  // namespace nib::app
