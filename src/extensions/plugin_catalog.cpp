#include "extensions/plugin_catalog.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "extensions/definition_files.hpp"
#include "extensions/limits.hpp"
#include "extensions/plugin_installs.hpp"
#include "extensions/plugin_marketplace.hpp"
#include "extensions/plugin_path.hpp"
#include "extensions/plugin_reader.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNotInstalled =
    "not installed; nib does not download plugins — install it with Claude Code or add a local "
    "marketplace";

// Marketplaces by name, each read once: nullopt when it is not on disk or cannot be read.
using ReadMarketplaces = std::map<std::string, std::optional<Marketplace>, std::less<>>;

// The marketplace `name`, read the first time it is asked for (a problem when it is on disk
// but cannot be read); nullptr when it cannot be had.
const Marketplace* marketplace_named(const std::string& name, const MarketplaceFolders& folders,
                                     ReadMarketplaces& read, std::vector<Problem>& problems) {
  auto [at, first_time] = read.try_emplace(name);
  const auto folder = folders.find(name);
  if (first_time && folder != folders.end() && !folder->second.empty()) {
    auto marketplace = read_marketplace(folder->second);
    if (marketplace.ok()) {
      at->second = std::move(marketplace.value());
    } else {
      problems.push_back({marketplace_file(folder->second), 0, marketplace.error()});
    }
  }
  return at->second ? &*at->second : nullptr;
}

struct Search {
  const nlohmann::json& installed;
  const fs::path& project_dir;
  const MarketplaceFolders& folders;
  ReadMarketplaces& marketplaces;
  std::vector<Problem>& problems;
};

// Where `wanted` is, or nullopt with a problem saying why it cannot be found.
std::optional<PluginLocation> locate(const EnabledPlugin& wanted, Search& search) {
  PluginLocation location{wanted.name, wanted.marketplace, {}, nullptr, {}, {}};
  const Marketplace* marketplace =
      marketplace_named(wanted.marketplace, search.folders, search.marketplaces, search.problems);
  const nlohmann::json* entry =
      marketplace ? find_plugin_entry(*marketplace, wanted.name) : nullptr;
  if (entry) {
    location.entry = entry;
    location.marketplace_file = marketplace->file;
  }
  if (auto install = find_install(search.installed, wanted.id(), search.project_dir)) {
    location.root = install->folder;
    location.installed_version = install->version;
    return location;
  }
  std::string why;
  if (!search.folders.contains(wanted.marketplace)) {
    why = "not installed, and no marketplace \"" + wanted.marketplace +
          "\" is known (extraKnownMarketplaces, ~/.claude/plugins/known_marketplaces.json)";
  } else if (search.folders.find(wanted.marketplace)->second.empty()) {
    why = kNotInstalled;
  } else if (!marketplace) {
    why = "not installed, and its marketplace cannot be read";
  } else if (!entry) {
    why = "not installed, and " + marketplace->file.string() + " lists no plugin named \"" +
          wanted.name + "\"";
  } else {
    auto folder = local_plugin_folder(*marketplace, *entry);
    if (!folder.ok()) {
      search.problems.push_back({marketplace->file, 0, folder.error()});
      return std::nullopt;
    }
    if (folder.value()) {
      location.root = *folder.value();
      return location;
    }
    why = kNotInstalled;
  }
  search.problems.push_back({wanted.file, 0, why});
  return std::nullopt;
}

}  // namespace

PluginCatalog load_plugins(const fs::path& home_dir, const fs::path& project_dir,
                           const std::vector<SettingsDocument>& settings) {
  PluginCatalog catalog;
  std::vector<Problem>& problems = catalog.problems;
  std::vector<EnabledPlugin> enabled = enabled_plugins(settings, problems);
  if (enabled.empty()) return catalog;
  if (enabled.size() > kMaxLoadedPlugins) {
    problems.push_back({enabled[kMaxLoadedPlugins].file, 0,
                        "more than " + std::to_string(kMaxLoadedPlugins) +
                            " plugins are enabled; those from " + enabled[kMaxLoadedPlugins].id() +
                            " on (by name) are not loaded"});
    enabled.resize(kMaxLoadedPlugins);
  }
  const nlohmann::json installed = read_installed_plugins(home_dir, problems);
  MarketplaceFolders folders = installed_marketplaces(home_dir, problems);
  const std::set<std::string, std::less<>> declared_by_project =
      add_declared_marketplaces(settings, home_dir, project_dir, folders, problems);
  ReadMarketplaces marketplaces;
  // Read each marketplace before the plugins, so its problems are its own, not the first
  // plugin's.
  for (const EnabledPlugin& wanted : enabled) {
    marketplace_named(wanted.marketplace, folders, marketplaces, problems);
  }
  Search search{installed, project_dir, folders, marketplaces, problems};
  for (const EnabledPlugin& wanted : enabled) {
    const std::size_t first_problem = problems.size();
    std::optional<Plugin> plugin;
    if (const std::optional<PluginLocation> location = locate(wanted, search)) {
      plugin = read_plugin(*location, problems);
    }
    if (plugin) {
      if (const Plugin* same = find_by_name(catalog.plugins, plugin->name)) {
        problems.push_back({plugin->root, 0,
                            "its name \"" + plugin->name + "\" is " + same->id() +
                                "'s too, which is loaded; their commands, agents and skills "
                                "would have the same names"});
        plugin.reset();
      }
    }
    for (std::size_t at = first_problem; at < problems.size(); ++at) {
      problems[at].message = wanted.id() + ": " + problems[at].message;
    }
    if (plugin) {
      plugin->from_project = !wanted.by_user || declared_by_project.contains(wanted.marketplace) ||
                             real_path_within(project_dir, plugin->root);
      catalog.plugins.push_back(std::move(*plugin));
    }
  }
  std::sort(catalog.plugins.begin(), catalog.plugins.end(),
            [](const Plugin& a, const Plugin& b) { return a.name < b.name; });
  return catalog;
}

}  // namespace nib::extensions
