#include "sandbox/sandbox_settings.hpp"

#include <algorithm>

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;
using Status = util::Status;

constexpr const char* kNibKeys[] = {"enabled", "network", "writablePaths", "excludedCommands"};

Status problem(const SettingsDocument& source, const std::string& field, const std::string& what) {
  return Status::failure(source.file.string() + ": sandbox" + (field.empty() ? "" : "." + field) +
                         ": " + what);
}

// The strings of `value` (an array), or a problem naming `field`.
Status read_strings(const SettingsDocument& source, const std::string& field,
                    const nlohmann::json& value, std::vector<std::string>& out) {
  if (!value.is_array()) return problem(source, field, "must be an array of strings");
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string() || value[i].get<std::string>().empty()) {
      return problem(source, field + "[" + std::to_string(i) + "]", "must be a non-empty string");
    }
    out.push_back(value[i].get<std::string>());
  }
  return Status::success();
}

Status read_bool(const SettingsDocument& source, const nlohmann::json& section, const char* key,
                 bool& out) {
  const auto found = section.find(key);
  if (found == section.end()) return Status::success();
  if (!found->is_boolean()) return problem(source, key, "must be true or false");
  out = found->get<bool>();
  return Status::success();
}

fs::path resolve(const std::string& path, const fs::path& tree, const fs::path& home) {
  if (path == "~") return home;
  if (path.starts_with("~/")) return (home / path.substr(2)).lexically_normal();
  const fs::path given(path);
  return (given.is_absolute() ? given : tree / given).lexically_normal();
}

Status read_one(const SettingsDocument& source, const fs::path& tree, const fs::path& home,
                SandboxSettings& settings) {
  const auto found = source.document->find("sandbox");
  if (found == source.document->end()) return Status::success();
  const nlohmann::json& section = *found;
  if (!section.is_object()) return problem(source, "", "must be an object");
  if (!source.claude) {
    for (const auto& [key, value] : section.items()) {
      if (std::find(std::begin(kNibKeys), std::end(kNibKeys), key) == std::end(kNibKeys)) {
        return problem(source, key,
                       "unknown key; the sandbox section takes enabled, network, writablePaths "
                       "and excludedCommands");
      }
    }
  }
  if (auto status = read_bool(source, section, "enabled", settings.enabled); !status.ok()) {
    return status;
  }
  if (!source.claude) {
    if (auto status = read_bool(source, section, "network", settings.network); !status.ok()) {
      return status;
    }
    if (const auto paths = section.find("writablePaths"); paths != section.end()) {
      std::vector<std::string> given;
      if (auto status = read_strings(source, "writablePaths", *paths, given); !status.ok()) {
        return status;
      }
      for (const std::string& path : given) {
        settings.writable_paths.push_back(resolve(path, tree, home));
      }
    }
  }
  if (const auto commands = section.find("excludedCommands"); commands != section.end()) {
    return read_strings(source, "excludedCommands", *commands, settings.excluded_commands);
  }
  return Status::success();
}

}  // namespace

util::Result<SandboxSettings> read_sandbox_settings(const std::vector<SettingsDocument>& sources,
                                                    const fs::path& tree, const fs::path& home) {
  SandboxSettings settings;
  for (const SettingsDocument& source : sources) {
    if (source.document == nullptr || !source.document->is_object()) continue;
    if (auto status = read_one(source, tree, home, settings); !status.ok()) {
      return util::Result<SandboxSettings>::failure(status.error());
    }
  }
  return settings;
}

bool is_excluded_command(std::string_view command, const std::vector<std::string>& excluded) {
  const std::size_t start = command.find_first_not_of(" \t\n");
  if (start == std::string_view::npos) return false;
  command.remove_prefix(start);
  return std::any_of(excluded.begin(), excluded.end(), [&](const std::string& entry) {
    if (!command.starts_with(entry)) return false;
    return command.size() == entry.size() || command[entry.size()] == ' ' ||
           command[entry.size()] == '\t';
  });
}

}  // namespace nib::sandbox
