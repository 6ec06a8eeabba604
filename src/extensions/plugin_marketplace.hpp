#pragma once
// A Claude Code plugin marketplace (code.claude.com/docs/en/plugin-marketplaces): a folder, or
// a repository Claude Code cloned, holding .claude-plugin/marketplace.json:
//
//   {"name": "team-tools", "owner": {"name": "..."}, "metadata": {"pluginRoot": "./plugins"},
//    "plugins": [{"name": "formatter", "source": "./plugins/formatter", "strict": true, ...},
//                {"name": "deployer", "source": {"source": "github", "repo": "o/r"}}]}
//
// A plugin entry's "source" is a path inside the marketplace ("./plugins/formatter", resolved
// against the marketplace's folder, not .claude-plugin/; a bare name such as "formatter" is
// looked for under metadata.pluginRoot) or an object naming somewhere to fetch it from
// (github, url, git-subdir, npm), which nib never does. The rest of the entry is plugin.json's
// fields (plugin_reader). Reads files only; thread-safe.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace nib::extensions {

// Where each known marketplace is on disk, by name: its folder, or an empty path for one that
// is known but not there (a GitHub marketplace Claude Code never cloned).
using MarketplaceFolders = std::map<std::string, std::filesystem::path, std::less<>>;

struct Marketplace {
  std::filesystem::path root;  // the folder holding .claude-plugin/marketplace.json
  std::filesystem::path file;  // that file
  nlohmann::json document;
};

// <root>/.claude-plugin/marketplace.json.
std::filesystem::path marketplace_file(const std::filesystem::path& root);

// The marketplace in `root`. Failure, about marketplace_file(root): not there, or cannot be
// used (read_json_object's failures; "plugins" not a list).
util::Result<Marketplace> read_marketplace(const std::filesystem::path& root);

// The entry of `marketplace` for the plugin named `plugin`, or nullptr.
const nlohmann::json* find_plugin_entry(const Marketplace& marketplace, std::string_view plugin);

// The folder `entry`'s source puts the plugin in, inside the marketplace; nullopt for a source
// to fetch from elsewhere. Failure: no source, or a path that leaves the marketplace's folder.
util::Result<std::optional<std::filesystem::path>> local_plugin_folder(
    const Marketplace& marketplace, const nlohmann::json& entry);

}  // namespace nib::extensions
