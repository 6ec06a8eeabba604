#include "extensions/plugin_reader.hpp"

#include <nlohmann/json.hpp>

#include "extensions/definition_files.hpp"
#include "extensions/plugin_json.hpp"
#include "extensions/plugin_parts.hpp"
#include "extensions/plugin_path.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// `object`'s `key`: "" when there is no object or it has no such key; a problem (naming
// `file`) when the value is not a string.
std::string text_field(const json* object, std::string_view key, const fs::path& file,
                       std::vector<Problem>& problems) {
  const json* value = object ? json_member(*object, key) : nullptr;
  if (!value || value->is_null()) return "";
  if (!value->is_string()) {
    problems.push_back({file, 0, std::string(key) + ": must be a string"});
    return "";
  }
  return value->get<std::string>();
}

// The manifest's name; `enabled_as` when the manifest has none to give (a problem).
std::string manifest_name(const json& manifest, const fs::path& file, const std::string& enabled_as,
                          std::vector<Problem>& problems) {
  const json* name = json_member(manifest, "name");
  if (!name || !name->is_string()) {
    problems.push_back(
        {file, 0, "name: missing or not a string; add \"name\": \"" + enabled_as + "\""});
    return enabled_as;
  }
  const std::string& written = name->get_ref<const std::string&>();
  if (!is_valid_name(written)) {
    problems.push_back({file, 0,
                        "name: \"" + written +
                            "\" is not kebab-case, and it names the plugin's commands, agents "
                            "and skills; " +
                            std::string(kNameRule)});
    return enabled_as;
  }
  return written;
}

}  // namespace

std::optional<Plugin> read_plugin(const PluginLocation& location, std::vector<Problem>& problems) {
  const std::size_t problems_before = problems.size();
  Plugin plugin;
  plugin.name = location.name;
  plugin.marketplace = location.marketplace;
  plugin.root = normal_folder(location.root);
  std::error_code error;
  if (!fs::is_directory(plugin.root, error)) {
    problems.push_back({plugin.root, 0, "the plugin's folder is not there"});
    return std::nullopt;
  }
  const fs::path manifest_file = plugin.root / ".claude-plugin" / "plugin.json";
  auto read = read_json_object(manifest_file);
  if (!read.ok()) {
    problems.push_back({manifest_file, 0, read.error()});
    return std::nullopt;
  }
  const json* manifest = read.value() ? &*read.value() : nullptr;
  const json* entry = location.entry;
  const fs::path& entry_file = location.marketplace_file;

  if (manifest) plugin.name = manifest_name(*manifest, manifest_file, location.name, problems);
  // plugin.json wins over the marketplace entry, as in Claude Code's version resolution.
  plugin.version = text_field(manifest, "version", manifest_file, problems);
  plugin.description = text_field(manifest, "description", manifest_file, problems);
  const std::string entry_version = text_field(entry, "version", entry_file, problems);
  const std::string entry_description = text_field(entry, "description", entry_file, problems);
  if (plugin.version.empty()) {
    plugin.version = entry_version.empty() ? location.installed_version : entry_version;
  }
  if (plugin.description.empty()) plugin.description = entry_description;

  bool strict = true;
  if (const json* value = entry ? json_member(*entry, "strict") : nullptr) {
    if (value->is_boolean()) {
      strict = value->get<bool>();
    } else {
      problems.push_back({entry_file, 0, "strict: must be true or false"});
    }
  }
  std::vector<PartDeclaration> declarations;
  if (manifest && strict) declarations.push_back({manifest, manifest_file});
  if (entry) declarations.push_back({entry, entry_file});
  if (manifest && !strict && declares_parts(*manifest)) {
    problems.push_back({manifest_file, 0,
                        "lists parts (commands, agents, skills, hooks or mcpServers) while its "
                        "entry in " +
                            entry_file.string() +
                            " says \"strict\": false, which makes the entry the whole "
                            "definition; list them in one of the two"});
  }
  read_plugin_parts(declarations, plugin, problems);
  if (problems.size() > problems_before) return std::nullopt;
  if (plugin.name != location.name) {
    problems.push_back({manifest_file, 0,
                        "name: \"" + plugin.name + "\" differs from \"" + location.name +
                            "\", as it is enabled; its commands, agents and skills are named " +
                            plugin.name + ":..."});
  }
  return plugin;
}

}  // namespace nib::extensions
