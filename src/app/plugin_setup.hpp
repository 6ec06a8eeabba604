#pragma once
// Claude Code's plugins in nib (extensions/plugin_catalog.hpp finds and reads them): loaded once
// with the configuration, since Claude Code's settings enable them, so that every layer that
// takes a plugin's part reads the same list: the extension loaders (commands, agents, skills
// through ExtensionRoots::plugins), the hooks (plugin_hook_sources), the MCP servers
// (mcp_setup, plugin_server_name) and `nib plugins`. A plugin whose hooks or MCP servers do not
// parse is reported, naming its file, and left out whole, so that no half of it runs. Reads
// files; the catalog is immutable once loaded.

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "extensions/plugin_catalog.hpp"
#include "hooks/hook_config.hpp"

namespace nib::app {

// The plugins Claude Code's settings files `claude_settings` (weakest first) enable, found
// under `home` (~/.claude/plugins) or in marketplaces on disk, with their problems.
std::shared_ptr<const extensions::PluginCatalog> load_claude_plugins(
    const std::vector<extensions::SettingsDocument>& claude_settings,
    const std::filesystem::path& home, const std::filesystem::path& project);

// Every plugin's hooks, for hooks::parse_hook_config (valid while `catalog` lives), each with
// CLAUDE_PLUGIN_ROOT in its environment.
std::vector<hooks::HookSource> plugin_hook_sources(const extensions::PluginCatalog& catalog);

// The name a plugin's MCP server runs under, as Claude Code names it, so that its tools are
// mcp__plugin_<plugin>_<server>__<tool>.
std::string plugin_server_name(const extensions::Plugin& plugin, const std::string& server);

// The plugin's servers of `config` as an "mcpServers" document: each under its
// plugin_server_name, with CLAUDE_PLUGIN_ROOT in its environment (scripts read it).
nlohmann::json plugin_servers_document(const extensions::Plugin& plugin,
                                       const extensions::PluginConfig& config);

// `nib plugins`: each loaded plugin with its parts, then the problems (exit status 1 when a
// plugin was left out).
int run_plugins_command(const extensions::PluginCatalog& catalog, std::ostream& out,
                        std::ostream& err);

}  // namespace nib::app
