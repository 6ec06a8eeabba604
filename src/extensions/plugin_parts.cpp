#include "extensions/plugin_parts.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "extensions/limits.hpp"
#include "extensions/plugin_json.hpp"
#include "extensions/plugin_path.hpp"
#include "util/result.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::array<std::string_view, 5> kPartKeys = {"commands", "agents", "skills", "hooks",
                                                       "mcpServers"};

// What a listed path must be.
enum class Target { kFolderOrMarkdown, kFolder, kFile };

// What a hooks or MCP file holds: the configuration in its object, or why there is none.
using ConfigContents = util::Result<json> (*)(const json& document);

void add_problem(std::vector<Problem>& problems, const fs::path& file, std::string_view key,
                 const std::string& what) {
  problems.push_back({file, 0, std::string(key) + ": " + what});
}

// What a declaration's `key` lists: the value itself, or its elements when it is an array; at
// most kMaxPluginPartPaths of them.
std::vector<const json*> listed(const json& value, std::string_view key,
                                const PartDeclaration& declaration,
                                std::vector<Problem>& problems) {
  std::vector<const json*> items;
  if (!value.is_array()) return {&value};
  for (const json& item : value) {
    if (items.size() == kMaxPluginPartPaths) {
      add_problem(problems, declaration.file, key,
                  "lists more than " + std::to_string(kMaxPluginPartPaths) +
                      " entries; the rest were not read");
      break;
    }
    items.push_back(&item);
  }
  return items;
}

bool is_target(const fs::path& path, Target target) {
  std::error_code error;
  switch (target) {
    case Target::kFolderOrMarkdown:
      return fs::is_directory(path, error) ||
             (path.extension() == ".md" && fs::is_regular_file(path, error));
    case Target::kFolder:
      return fs::is_directory(path, error);
    case Target::kFile:
      break;
  }
  return fs::is_regular_file(path, error);
}

// The path inside `root` that `item` names, when it is there and is what `target` asks.
std::optional<fs::path> listed_path(const json& item, std::string_view key, Target target,
                                    const PartDeclaration& declaration, const fs::path& root,
                                    std::vector<Problem>& problems) {
  if (!item.is_string()) {
    add_problem(problems, declaration.file, key,
                "lists an entry that is not a path; write paths as strings, such as \"./more\"");
    return std::nullopt;
  }
  const std::string& written = item.get_ref<const std::string&>();
  auto path = path_inside(root, written);
  if (!path.ok()) {
    add_problem(problems, declaration.file, key, path.error());
    return std::nullopt;
  }
  std::error_code error;
  if (!fs::exists(path.value(), error)) {
    add_problem(problems, declaration.file, key, "\"" + written + "\" is not there");
    return std::nullopt;
  }
  if (!is_target(path.value(), target)) {
    const char* wanted = target == Target::kFolder ? "a folder"
                         : target == Target::kFile ? "a file"
                                                   : "a folder or a Markdown (.md) file";
    add_problem(problems, declaration.file, key, "\"" + written + "\" is not " + wanted);
    return std::nullopt;
  }
  return path.value();
}

void add_once(std::vector<fs::path>& paths, fs::path path) {
  if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(std::move(path));
}

// The folders and files of one kind of definitions ("commands", "agents", "skills"): the
// default folder of that name, unless `listing_replaces_default` and a declaration lists some,
// then the listed ones; each once.
std::vector<fs::path> definition_paths(std::string_view kind, Target target,
                                       bool listing_replaces_default,
                                       const std::vector<PartDeclaration>& declarations,
                                       const fs::path& root, std::vector<Problem>& problems) {
  std::vector<fs::path> named;
  bool declared = false;
  for (const PartDeclaration& declaration : declarations) {
    const json* value = json_member(*declaration.object, kind);
    if (!value) continue;
    declared = true;
    for (const json* item : listed(*value, kind, declaration, problems)) {
      if (auto path = listed_path(*item, kind, target, declaration, root, problems)) {
        add_once(named, std::move(*path));
      }
    }
  }
  std::vector<fs::path> paths;
  const fs::path default_folder = root / kind;
  std::error_code error;
  if ((!declared || !listing_replaces_default) && fs::is_directory(default_folder, error)) {
    paths.push_back(default_folder);
  }
  for (fs::path& path : named) add_once(paths, std::move(path));
  return paths;
}

// `value` with ${CLAUDE_PLUGIN_ROOT} replaced in every string in it (keys are left alone).
json with_plugin_root(json value, const fs::path& root) {
  if (value.is_string()) return expand_plugin_root(value.get_ref<const std::string&>(), root);
  if (value.is_structured()) {
    for (json& item : value) item = with_plugin_root(std::move(item), root);
  }
  return value;
}

// The hooks or MCP configurations: `default_file`'s (when it is there), then what each
// declaration's `key` lists, files (each read once) or objects written inline.
std::vector<PluginConfig> configurations(std::string_view key, const fs::path& default_file,
                                         ConfigContents contents,
                                         const std::vector<PartDeclaration>& declarations,
                                         const fs::path& root, std::vector<Problem>& problems) {
  std::vector<PluginConfig> configs;
  std::vector<fs::path> files_read;
  const auto read_file = [&](const fs::path& file) {
    // Claude Code reads hooks/hooks.json by itself and refuses a manifest that names it again;
    // nib reads it once.
    if (std::find(files_read.begin(), files_read.end(), file) != files_read.end()) return;
    files_read.push_back(file);
    auto read = read_json_object(file);
    if (!read.ok()) {
      problems.push_back({file, 0, read.error()});
      return;
    }
    if (!read.value()) return;  // no such default file
    auto config = contents(*read.value());
    if (!config.ok()) {
      problems.push_back({file, 0, config.error()});
      return;
    }
    configs.push_back({file, with_plugin_root(std::move(config.value()), root)});
  };
  read_file(default_file);
  for (const PartDeclaration& declaration : declarations) {
    const json* value = json_member(*declaration.object, key);
    if (!value) continue;
    for (const json* item : listed(*value, key, declaration, problems)) {
      if (item->is_object()) {
        configs.push_back({declaration.file, with_plugin_root(*item, root)});
      } else if (auto file = listed_path(*item, key, Target::kFile, declaration, root, problems)) {
        read_file(*file);
      }
    }
  }
  return configs;
}

util::Result<json> hooks_in(const json& document) {
  const json* hooks = json_member(document, "hooks");
  if (!hooks || !hooks->is_object()) {
    return util::Result<json>::failure(
        "hooks: missing or not an object; a hooks file holds {\"hooks\": {\"PreToolUse\": "
        "[...]}}");
  }
  return *hooks;
}

util::Result<json> servers_in(const json& document) {
  const json* servers = json_member(document, "mcpServers");
  if (!servers) return document;  // the server map alone
  if (!servers->is_object()) {
    return util::Result<json>::failure("mcpServers: must be an object of servers by name");
  }
  return *servers;
}

}  // namespace

void read_plugin_parts(const std::vector<PartDeclaration>& declarations, Plugin& plugin,
                       std::vector<Problem>& problems) {
  const fs::path& root = plugin.root;
  plugin.commands =
      definition_paths("commands", Target::kFolderOrMarkdown, true, declarations, root, problems);
  plugin.agents =
      definition_paths("agents", Target::kFolderOrMarkdown, true, declarations, root, problems);
  plugin.skills = definition_paths("skills", Target::kFolder, false, declarations, root, problems);
  // A plugin that is one skill keeps its SKILL.md at its root (Claude Code loads it so when
  // there is no skills/ folder and no "skills" list).
  std::error_code error;
  if (plugin.skills.empty() && fs::exists(root / "SKILL.md", error)) plugin.skills = {root};
  plugin.hooks = configurations("hooks", root / "hooks" / "hooks.json", hooks_in, declarations,
                                root, problems);
  plugin.mcp_servers =
      configurations("mcpServers", root / ".mcp.json", servers_in, declarations, root, problems);
}

bool declares_parts(const nlohmann::json& object) {
  return std::any_of(kPartKeys.begin(), kPartKeys.end(),
                     [&](std::string_view key) { return json_member(object, key) != nullptr; });
}

}  // namespace nib::extensions
