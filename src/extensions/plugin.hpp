#pragma once
// One Claude Code plugin as nib loads it (plugin_catalog finds and reads them): a folder
// holding .claude-plugin/plugin.json and its parts, commands, agents, skills, hooks and MCP
// servers, in Claude Code's formats (code.claude.com/docs/en/plugins-reference). Plain value;
// thread-safe.
//
// The plugin's name is the namespace of its parts, as in Claude Code: its command hello is
// /my-plugin:hello (or /hello, when no other command has that name), its agent reviewer is
// my-plugin:reviewer, its skill pdf is my-plugin:pdf, its MCP servers' tools
// mcp__plugin_my-plugin_<server>__<tool> (naming those is the MCP layer's business).
//
// ${CLAUDE_PLUGIN_ROOT}, the plugin's folder, is replaced in the hooks and MCP configurations
// when the plugin is read, and in the text of its commands, agents and skills when they load,
// as Claude Code substitutes it inline there. Claude Code also exports it to hook processes
// and MCP servers, for scripts that read $CLAUDE_PLUGIN_ROOT themselves: whoever runs them
// sets it to `root`. ${CLAUDE_PLUGIN_DATA} is left as written.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace nib::extensions {

// One hooks or MCP configuration of a plugin, with the file it was read from (plugin.json or
// marketplace.json for one written inline), so messages about it can name the file.
struct PluginConfig {
  std::filesystem::path file;
  nlohmann::json value;
};

struct Plugin {
  std::string name;         // "my-plugin": its manifest's name (kebab-case), the namespace
  std::string marketplace;  // "team-tools": the marketplace it is enabled from
  // The project had a say in it: a file other than the user's own enabled it, or declared its
  // marketplace, or it lies inside the project. Its MCP servers then wait for the user's
  // approval, as the project's .mcp.json does.
  bool from_project = false;
  std::filesystem::path root;
  std::string version;      // plugin.json's, else its marketplace entry's or install's; or ""
  std::string description;  // plugin.json's, else its marketplace entry's; or ""

  // Where its parts are, each inside `root`; only folders and files that exist.
  std::vector<std::filesystem::path> commands;  // folders of commands, or single .md files
  std::vector<std::filesystem::path> agents;    // folders of agents, or single .md files
  std::vector<std::filesystem::path> skills;    // folders holding <skill>/SKILL.md, or SKILL.md
  // Each an event map as under settings' "hooks": {"PreToolUse": [{"matcher": ..., "hooks":
  // [...]}], ...}; hooks/hooks.json's first, then the manifest's.
  std::vector<PluginConfig> hooks;
  // Each a server map as under .mcp.json's "mcpServers": {"db": {"command": ...}}; .mcp.json's
  // first, then the manifest's.
  std::vector<PluginConfig> mcp_servers;

  // "my-plugin@team-tools", as enabledPlugins names it.
  std::string id() const { return name + "@" + marketplace; }
};

// "<plugin>:<name>": how an agent or skill of `plugin` is called.
std::string plugin_part_name(const Plugin& plugin, std::string_view name);

// `text` with every ${CLAUDE_PLUGIN_ROOT} replaced by `root`.
std::string expand_plugin_root(std::string_view text, const std::filesystem::path& root);

}  // namespace nib::extensions
