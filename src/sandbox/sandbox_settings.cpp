#include "sandbox/sandbox_settings.hpp"

#include <algorithm>

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;
using Status = util::Status;

constexpr const char* kNibKeys[] = {"enabled", "network", "writablePaths", "excludedCommands",
                                    "unixSockets"};

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

// `object[key]` into `out` when it is there; a problem names it with `prefix` ("network.").
Status read_bool(const SettingsDocument& source, const nlohmann::json& object, const char* key,
                 bool& out, const std::string& prefix = "") {
  const auto found = object.find(key);
  if (found == object.end()) return Status::success();
  if (!found->is_boolean()) return problem(source, prefix + key, "must be true or false");
  out = found->get<bool>();
  return Status::success();
}

fs::path resolve(const std::string& path, const fs::path& tree, const fs::path& home) {
  if (path == "~") return home;
  if (path.starts_with("~/")) return (home / path.substr(2)).lexically_normal();
  const fs::path given(path);
  return (given.is_absolute() ? given : tree / given).lexically_normal();
}

// The paths `object[key]` lists, when it is there, resolved and added to `out`; a problem names
// the key as `field`.
Status read_paths(const SettingsDocument& source, const nlohmann::json& object, const char* key,
                  const std::string& field, const fs::path& tree, const fs::path& home,
                  std::vector<fs::path>& out) {
  const auto found = object.find(key);
  if (found == object.end()) return Status::success();
  std::vector<std::string> given;
  if (auto status = read_strings(source, field, *found, given); !status.ok()) return status;
  for (const std::string& path : given) out.push_back(resolve(path, tree, home));
  return Status::success();
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
                       "unknown key; the sandbox section takes enabled, network, writablePaths, "
                       "excludedCommands and unixSockets");
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
    if (auto status = read_paths(source, section, "unixSockets", "unixSockets", tree, home,
                                 settings.unix_sockets);
        !status.ok()) {
      return status;
    }
    if (auto status = read_paths(source, section, "writablePaths", "writablePaths", tree, home,
                                 settings.writable_paths);
        !status.ok()) {
      return status;
    }
  }
  if (source.claude) {
    if (const auto network = section.find("network");
        network != section.end() && network->is_object()) {
      if (auto status = read_bool(source, *network, "allowAllUnixSockets",
                                  settings.all_unix_sockets, "network.");
          !status.ok()) {
        return status;
      }
      if (auto status = read_paths(source, *network, "allowUnixSockets", "network.allowUnixSockets",
                                   tree, home, settings.unix_sockets);
          !status.ok()) {
        return status;
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
