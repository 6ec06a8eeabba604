#include "extensions/plugin_marketplace.hpp"

#include "extensions/plugin_json.hpp"
#include "extensions/plugin_path.hpp"

namespace nib::extensions {

namespace fs = std::filesystem;

fs::path marketplace_file(const fs::path& root) {
  return root / ".claude-plugin" / "marketplace.json";
}

util::Result<Marketplace> read_marketplace(const fs::path& root) {
  using Result = util::Result<Marketplace>;
  Marketplace marketplace{root, marketplace_file(root), {}};
  auto read = read_json_object(marketplace.file);
  if (!read.ok()) return Result::failure(read.error());
  if (!read.value()) {
    return Result::failure(
        "not there; a marketplace's folder holds .claude-plugin/marketplace.json");
  }
  marketplace.document = std::move(*read.value());
  const nlohmann::json* plugins = json_member(marketplace.document, "plugins");
  if (!plugins || !plugins->is_array()) {
    return Result::failure(
        "plugins: missing or not a list; a marketplace lists its plugins as \"plugins\": "
        "[{\"name\": ..., \"source\": ...}]");
  }
  return marketplace;
}

const nlohmann::json* find_plugin_entry(const Marketplace& marketplace, std::string_view plugin) {
  const nlohmann::json* plugins = json_member(marketplace.document, "plugins");
  if (!plugins) return nullptr;
  for (const nlohmann::json& entry : *plugins) {
    const nlohmann::json* name = json_member(entry, "name");
    if (name && name->is_string() && name->get_ref<const std::string&>() == plugin) return &entry;
  }
  return nullptr;
}

util::Result<std::optional<fs::path>> local_plugin_folder(const Marketplace& marketplace,
                                                          const nlohmann::json& entry) {
  using Result = util::Result<std::optional<fs::path>>;
  const nlohmann::json* source = json_member(entry, "source");
  if (source && source->is_object()) return std::optional<fs::path>();  // github, url, npm, ...
  if (!source || !source->is_string()) {
    return Result::failure(
        "source: missing; a plugin entry says where the plugin is, such as \"./plugins/name\"");
  }
  const std::string& written = source->get_ref<const std::string&>();
  const fs::path root = normal_folder(marketplace.root);
  // metadata.pluginRoot is where bare names ("formatter") are; paths ("./plugins/formatter")
  // are from the marketplace's folder.
  fs::path base = root;
  const nlohmann::json* metadata = json_member(marketplace.document, "metadata");
  const nlohmann::json* plugin_root = metadata ? json_member(*metadata, "pluginRoot") : nullptr;
  if (plugin_root && plugin_root->is_string() && written.find('/') == std::string::npos) {
    auto resolved = path_inside(root, plugin_root->get_ref<const std::string&>());
    if (!resolved.ok()) return Result::failure("metadata.pluginRoot: " + resolved.error());
    base = resolved.value();
  }
  auto folder = path_inside(base, written);
  if (!folder.ok()) return Result::failure("source: " + folder.error());
  return std::optional<fs::path>(folder.value());
}

}  // namespace nib::extensions
