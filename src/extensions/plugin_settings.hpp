#pragma once
// The plugin keys of Claude Code's settings files (code.claude.com/docs/en/settings, "Plugin
// settings"), read from each settings document, weakest first (~/.claude/settings.json,
// .claude/settings.json, .claude/settings.local.json):
//
//   "enabledPlugins": {"formatter@team-tools": true, "linter@team-tools": false}
//   "extraKnownMarketplaces": {"team-tools": {"source": {"source": "directory",
//                                                        "path": "./plugins-market"}},
//                              "acme": {"source": {"source": "github", "repo": "acme/plugins"}}}
//
// For one plugin the most specific file that names it decides (a project may enable what the
// user's file disables; .claude/settings.local.json overrides both). A plugin no file names is
// not loaded: Claude Code writes `true` when it installs one. Reads nothing but the
// documents given; thread-safe.

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "extensions/plugin_marketplace.hpp"
#include "extensions/problem.hpp"

namespace nib::extensions {

// One settings file as read.
struct SettingsDocument {
  std::filesystem::path file;
  const nlohmann::json* document = nullptr;
  // The user's word, not a repository's: their own file, or this checkout's local one when git
  // ignores it (app::SettingsSource::written_by_user).
  bool users = false;
};

struct EnabledPlugin {
  std::string name;            // "formatter"
  std::string marketplace;     // "team-tools"
  std::filesystem::path file;  // the settings file that enables it
  bool by_user = false;        // that file is the user's own (SettingsDocument::users)

  // "formatter@team-tools"
  std::string id() const { return name + "@" + marketplace; }
};

// The plugins turned on, sorted by id. Problems (naming the settings file): enabledPlugins not
// an object, a value not true or false, a key without "@marketplace".
std::vector<EnabledPlugin> enabled_plugins(const std::vector<SettingsDocument>& settings,
                                           std::vector<Problem>& problems);

// `folders` (what Claude Code recorded) with the marketplaces extraKnownMarketplaces declares:
// a "directory" source is that folder (a relative path from `project_dir`, "~/" from
// `home_dir`); any other source (github, git, url, ...) is known, and stays where Claude Code
// cloned it if it did. A later document's entry replaces an earlier one's, except that a file
// that is not the user's own cannot redeclare a marketplace already known (Claude Code's, or
// the user's): a repository must not put its folder where the user's plugins come from.
// Problems: an entry that is not {"source": {"source": ...}}, a redeclaration refused. Returns
// the names that files other than the user's own declared.
std::set<std::string, std::less<>> add_declared_marketplaces(
    const std::vector<SettingsDocument>& settings, const std::filesystem::path& home_dir,
    const std::filesystem::path& project_dir, MarketplaceFolders& folders,
    std::vector<Problem>& problems);

}  // namespace nib::extensions
