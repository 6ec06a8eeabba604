#pragma once
// Reading one plugin from its folder (plugins-reference, "Plugin manifest schema"):
// .claude-plugin/plugin.json, the manifest,
//
//   {"name": "my-plugin", "version": "1.2.0", "description": "...", "author": {...},
//    "commands": ["./extra/deploy.md"], "agents": "./custom/agents/", "skills": "./more/",
//    "hooks": "./config/hooks.json", "mcpServers": {"db": {"command": "..."}}}
//
// and its parts (plugin_parts). The manifest may be absent: the plugin is then named as it is
// enabled, and its parts are in their default places. Its marketplace entry may list parts
// too: with "strict": true (the default) they are added to the manifest's; with "strict":
// false the entry is the whole definition, and a manifest that also lists parts is a conflict.
// `name` must be kebab-case (is_valid_name): it is the namespace of the plugin's parts. Other
// manifest fields (author, license, userConfig, dependencies, ...) are not nib's and not
// read. Reads files only; thread-safe.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "extensions/plugin.hpp"
#include "extensions/problem.hpp"

namespace nib::extensions {

// Where one enabled plugin was found.
struct PluginLocation {
  std::string name;         // as enabled: "formatter" of formatter@team-tools
  std::string marketplace;  // "team-tools"
  std::filesystem::path root;
  // Its entry in its marketplace's marketplace.json (which `marketplace_file` names), when that
  // was read; else nullptr.
  const nlohmann::json* entry = nullptr;
  std::filesystem::path marketplace_file;
  std::string installed_version;  // installed_plugins.json's "version"; "" when not installed
};

// The plugin at `location`, or nullopt when it is broken, with every problem found added to
// `problems` (and, for a plugin that loads, a note when its manifest names it differently from
// how it is enabled). Broken: the folder not there; plugin.json that cannot be read, is not
// JSON or not an object; a name missing, not a string or not kebab-case; version, description
// or strict of the wrong type; a manifest listing parts beside a "strict": false entry; any
// problem with its parts (plugin_parts).
std::optional<Plugin> read_plugin(const PluginLocation& location, std::vector<Problem>& problems);

}  // namespace nib::extensions
