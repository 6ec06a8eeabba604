#pragma once
// The Claude Code plugins a session loads (code.claude.com/docs/en/plugins-reference,
// plugin-marketplaces, settings): the ones Claude Code's settings enable (plugin_settings),
// found where Claude Code installed them or in a marketplace on disk, and read
// (plugin_reader), with the problems met on the way for the start-up report. The commands,
// agents and skills loaders take the result through ExtensionRoots::plugins; hooks and MCP
// servers are the caller's to wire. Reads files only; thread-safe (a loaded catalog is a plain
// value).
//
// An enabled plugin "name@market" is looked for
//   1. among the plugins Claude Code installed (~/.claude/plugins/installed_plugins.json,
//      plugin_installs): its installPath; a project or local install only in its project;
//   2. in the marketplace "market", when it is on disk: a "directory" marketplace of
//      extraKnownMarketplaces, or one Claude Code cloned (~/.claude/plugins/
//      known_marketplaces.json's installLocation), whose marketplace.json entry for it gives a
//      path inside the marketplace (plugin_marketplace).
// nib fetches nothing: a plugin whose source is elsewhere (GitHub, a git URL, npm) and that
// Claude Code has not installed is reported as not installed. A plugin that cannot be found or
// read is reported (naming the file) and left out; the others still load. Two plugins of one
// name cannot both load (their parts would share names): the first by id is kept.

#include <filesystem>
#include <vector>

#include "extensions/plugin.hpp"
#include "extensions/plugin_settings.hpp"
#include "extensions/problem.hpp"

namespace nib::extensions {

struct PluginCatalog {
  std::vector<Plugin> plugins;    // sorted by name
  std::vector<Problem> problems;  // each message starts with the plugin's id when it has one
};

// The enabled plugins for `settings` (Claude Code's settings documents, weakest first),
// looked for in ~/.claude/plugins under `home_dir` (not when it is empty) and in marketplaces
// on disk (relative "directory" paths are from `project_dir`, the project's folder, which
// project and local installs are matched against). Reads no file when no plugin is enabled.
PluginCatalog load_plugins(const std::filesystem::path& home_dir,
                           const std::filesystem::path& project_dir,
                           const std::vector<SettingsDocument>& settings);

}  // namespace nib::extensions
