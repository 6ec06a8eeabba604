#pragma once
// What Claude Code records in ~/.claude/plugins when it installs plugins and marketplaces, read
// so that what it installed loads in nib too (neither file is documented; their shapes are as
// Claude Code writes them):
//
// installed_plugins.json, version 2 (version 1 had one object per key instead of a list):
//   {"version": 2, "plugins": {"formatter@team-tools": [
//     {"scope": "user", "installPath": "/home/me/.claude/plugins/cache/team-tools/formatter/1.0.0",
//      "version": "1.0.0", "installedAt": "...", "lastUpdated": "...", "gitCommitSha": "..."},
//     {"scope": "project", "projectPath": "/work/app", "installPath": "...", ...}]}}
// A "project" or "local" install is the plugin's for that project only; any other scope
// ("user", "managed") applies everywhere.
//
// known_marketplaces.json:
//   {"team-tools": {"source": {"source": "github", "repo": "o/r"},
//                   "installLocation": "/home/me/.claude/plugins/marketplaces/team-tools",
//                   "lastUpdated": "..."}}
//
// Reads files only; thread-safe.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "extensions/plugin_marketplace.hpp"
#include "extensions/problem.hpp"

namespace nib::extensions {

// installed_plugins.json under `home_dir`, as read: {} when there is none, or when it cannot
// be used (a problem).
nlohmann::json read_installed_plugins(const std::filesystem::path& home_dir,
                                      std::vector<Problem>& problems);

struct PluginInstall {
  std::filesystem::path folder;  // its installPath
  std::string version;           // "" when not recorded
};

// The install of `id` ("formatter@team-tools") in `installed` that applies in `project_dir`,
// the most specific first (local, then project, then any other scope), whose folder is there;
// nullopt when there is none.
std::optional<PluginInstall> find_install(const nlohmann::json& installed, std::string_view id,
                                          const std::filesystem::path& project_dir);

// The marketplaces known_marketplaces.json under `home_dir` records, each with its
// installLocation (an empty path when that is not a folder). Problems: a file that cannot be
// used.
MarketplaceFolders installed_marketplaces(const std::filesystem::path& home_dir,
                                          std::vector<Problem>& problems);

}  // namespace nib::extensions
