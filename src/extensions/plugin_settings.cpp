#include "extensions/plugin_settings.hpp"

#include <map>

#include <nlohmann/json.hpp>

#include "extensions/plugin_json.hpp"
#include "extensions/plugin_path.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;

// The object at `key` in `source`'s document; nullptr when absent (or not an object: a problem).
const nlohmann::json* section(const SettingsDocument& source, std::string_view key,
                              std::vector<Problem>& problems) {
  const nlohmann::json* value = source.document ? json_member(*source.document, key) : nullptr;
  if (!value || value->is_null()) return nullptr;
  if (!value->is_object()) {
    problems.push_back({source.file, 0, std::string(key) + ": must be an object"});
    return nullptr;
  }
  return value;
}

// A "directory" marketplace's path as written in a settings file, made absolute.
fs::path declared_folder(const std::string& written, const fs::path& home_dir,
                         const fs::path& project_dir) {
  if (written == "~") return normal_folder(home_dir);
  if (written.starts_with("~/")) return normal_folder(home_dir / written.substr(2));
  return normal_folder(project_dir / written);
}

}  // namespace

std::vector<EnabledPlugin> enabled_plugins(const std::vector<SettingsDocument>& settings,
                                           std::vector<Problem>& problems) {
  // By id: whether it is on, and the file that says so (the last that names it).
  struct Decision {
    bool on = false;
    const SettingsDocument* source = nullptr;
  };
  std::map<std::string, Decision> decided;
  for (const SettingsDocument& source : settings) {
    const nlohmann::json* enabled = section(source, "enabledPlugins", problems);
    if (!enabled) continue;
    for (const auto& [id, value] : enabled->items()) {
      if (!value.is_boolean()) {
        problems.push_back(
            {source.file, 0, "enabledPlugins: \"" + id + "\": must be true or false"});
        continue;
      }
      decided[id] = {value.get<bool>(), &source};
    }
  }
  std::vector<EnabledPlugin> plugins;
  for (const auto& [id, decision] : decided) {
    if (!decision.on) continue;
    const std::size_t at = id.find('@');
    if (at == 0 || at == std::string::npos || at + 1 == id.size()) {
      problems.push_back(
          {decision.source->file, 0,
           "enabledPlugins: \"" + id + "\" names no marketplace; write \"plugin@marketplace\""});
      continue;
    }
    plugins.push_back(
        {id.substr(0, at), id.substr(at + 1), decision.source->file, decision.source->users});
  }
  return plugins;
}

std::set<std::string, std::less<>> add_declared_marketplaces(
    const std::vector<SettingsDocument>& settings, const fs::path& home_dir,
    const fs::path& project_dir, MarketplaceFolders& folders, std::vector<Problem>& problems) {
  const MarketplaceFolders recorded = folders;
  std::set<std::string, std::less<>> by_project;
  for (const SettingsDocument& source : settings) {
    const nlohmann::json* declared = section(source, "extraKnownMarketplaces", problems);
    if (!declared) continue;
    for (const auto& [name, entry] : declared->items()) {
      if (!source.users && folders.contains(name) && !by_project.contains(name)) {
        problems.push_back({source.file, 0,
                            "extraKnownMarketplaces: \"" + name +
                                "\" is already a marketplace of yours; a project's settings "
                                "cannot move it, so yours is used"});
        continue;
      }
      if (!source.users) by_project.insert(name);
      const nlohmann::json* where = json_member(entry, "source");
      const nlohmann::json* kind = where ? json_member(*where, "source") : nullptr;
      if (!kind || !kind->is_string()) {
        problems.push_back({source.file, 0,
                            "extraKnownMarketplaces: \"" + name +
                                "\": source: must be an object such as {\"source\": "
                                "\"directory\", \"path\": \"./marketplace\"}"});
        continue;
      }
      const nlohmann::json* path = json_member(*where, "path");
      if (*kind == "directory") {
        if (!path || !path->is_string()) {
          problems.push_back({source.file, 0,
                              "extraKnownMarketplaces: \"" + name +
                                  "\": source: a directory source needs a \"path\""});
          continue;
        }
        folders[name] = declared_folder(path->get<std::string>(), home_dir, project_dir);
      } else {
        const auto clone = recorded.find(name);
        folders[name] = clone == recorded.end() ? fs::path() : clone->second;
      }
    }
  }
  return by_project;
}

}  // namespace nib::extensions
