#pragma once
// The `sandbox` section of the settings files, read from every source (weakest first) and
// validated here, naming the file on error:
//   "sandbox": {"enabled": true,            // false: commands run unconfined (last one wins)
//               "network": false,           // true: sandboxed commands get the host network
//               "writablePaths": ["~/shared", "/var/cache/x"],  // extra, added up
//               "excludedCommands": ["docker", "git push"],     // always run outside, added up
//               "unixSockets": ["/run/postgresql/.s.PGSQL.5432"]}  // reachable, added up
// A writable path starting with "~/" is under the home directory; a relative one is relative
// to the working tree. An excluded command matches a command that is it or starts with it and
// a space. Naming a unix socket lifts the socket filter (socket_filter.hpp): commands may then
// reach the sockets they can see, and the places of the user's own are hidden instead. Claude
// Code's settings files share the section: there "enabled", "excludedCommands" and, in its
// "network" object, "allowUnixSockets" (a list, as unixSockets) and "allowAllUnixSockets"
// (true: the filter off, nothing hidden) are read; its other keys mean something else and are
// ignored. In nib's own files an unknown key is an error.
// Pure; thread-compatible.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace nib::sandbox {

struct SandboxSettings {
  bool enabled = true;
  bool network = false;
  std::vector<std::filesystem::path> writable_paths;  // absolute
  std::vector<std::string> excluded_commands;
  std::vector<std::filesystem::path> unix_sockets;  // absolute
  bool all_unix_sockets = false;
};

// One settings document (app::SettingsSource without the app layer).
struct SettingsDocument {
  std::filesystem::path file;
  bool claude = false;
  const nlohmann::json* document = nullptr;
};

util::Result<SandboxSettings> read_sandbox_settings(const std::vector<SettingsDocument>& sources,
                                                    const std::filesystem::path& tree,
                                                    const std::filesystem::path& home);

// True when `command` (leading blanks ignored) is one of `excluded` or starts with one of them
// followed by a blank.
bool is_excluded_command(std::string_view command, const std::vector<std::string>& excluded);

}  // namespace nib::sandbox
