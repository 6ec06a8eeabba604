#include "extensions/plugin_installs.hpp"

#include <nlohmann/json.hpp>

#include "extensions/plugin_json.hpp"
#include "extensions/plugin_path.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;

fs::path claude_plugins_folder(const fs::path& home_dir) {
  return home_dir / ".claude" / "plugins";
}

// The object in `file`, or {} (with a problem when it is there but cannot be used).
nlohmann::json read_record(const fs::path& file, std::vector<Problem>& problems) {
  auto read = read_json_object(file);
  if (!read.ok()) {
    problems.push_back({file, 0, read.error()});
    return nlohmann::json::object();
  }
  return read.value() ? std::move(*read.value()) : nlohmann::json::object();
}

std::string text_member(const nlohmann::json& object, std::string_view key) {
  const nlohmann::json* value = json_member(object, key);
  return value && value->is_string() ? value->get<std::string>() : "";
}

// How closely an install fits `project_dir`: 0 for a local install of it, 1 for a project
// install, 2 for one of any other scope; nullopt for a local or project install of another
// project.
std::optional<int> fit(const nlohmann::json& install, const fs::path& project_dir) {
  const std::string scope = text_member(install, "scope");
  if (scope != "local" && scope != "project") return 2;
  const std::string project = text_member(install, "projectPath");
  if (project.empty() || project_dir.empty() ||
      normal_folder(project) != normal_folder(project_dir)) {
    return std::nullopt;
  }
  return scope == "local" ? 0 : 1;
}

}  // namespace

nlohmann::json read_installed_plugins(const fs::path& home_dir, std::vector<Problem>& problems) {
  if (home_dir.empty()) return nlohmann::json::object();
  const fs::path file = claude_plugins_folder(home_dir) / "installed_plugins.json";
  nlohmann::json installed = read_record(file, problems);
  const nlohmann::json* plugins = json_member(installed, "plugins");
  if (plugins && !plugins->is_object()) {
    problems.push_back({file, 0,
                        "plugins: not an object; plugins installed by Claude Code are "
                        "not loaded"});
    return nlohmann::json::object();
  }
  return installed;
}

std::optional<PluginInstall> find_install(const nlohmann::json& installed, std::string_view id,
                                          const fs::path& project_dir) {
  const nlohmann::json* plugins = json_member(installed, "plugins");
  const nlohmann::json* records = plugins ? json_member(*plugins, id) : nullptr;
  if (!records) return std::nullopt;
  // Version 1 recorded one install per plugin, version 2 a list of them.
  const nlohmann::json list = records->is_array() ? *records : nlohmann::json::array({*records});
  std::optional<PluginInstall> best;
  int best_fit = 3;
  for (const nlohmann::json& install : list) {
    const std::optional<int> closeness = fit(install, project_dir);
    const fs::path folder = text_member(install, "installPath");
    std::error_code error;
    if (!closeness || *closeness >= best_fit || !folder.is_absolute() ||
        !fs::is_directory(folder, error)) {
      continue;
    }
    best = PluginInstall{normal_folder(folder), text_member(install, "version")};
    best_fit = *closeness;
  }
  return best;
}

MarketplaceFolders installed_marketplaces(const fs::path& home_dir,
                                          std::vector<Problem>& problems) {
  MarketplaceFolders folders;
  if (home_dir.empty()) return folders;
  const nlohmann::json known =
      read_record(claude_plugins_folder(home_dir) / "known_marketplaces.json", problems);
  for (const auto& [name, record] : known.items()) {
    const fs::path location = text_member(record, "installLocation");
    std::error_code error;
    const bool there = location.is_absolute() && fs::is_directory(location, error);
    folders[name] = there ? normal_folder(location) : fs::path();
  }
  return folders;
}

}  // namespace nib::extensions
