#pragma once
// The permission rules of this checkout, wired to the settings files: every settings source
// (nib's and Claude Code's, user, project, local) as a permissions::RuleSource, and the saving
// of "always" rules to .nib/settings.local.json. Reads and writes files; thread-safe (no
// shared state).

#include <filesystem>
#include <string>
#include <vector>

#include "app/settings.hpp"
#include "permissions/rule.hpp"
#include "permissions/rule_set.hpp"
#include "util/result.hpp"

namespace nib::app {

// Each of `configuration`'s sources with the directory its "/path" rules start from: the
// project (the directory holding .nib/ or .claude/) for project and local files, `home` for
// the user's.
std::vector<permissions::RuleSource> rule_sources(const Configuration& configuration,
                                                  const std::filesystem::path& home);

// Adds `rules` (each once) to permissions.<list> of `project`/.nib/settings.local.json,
// creating it (and .nib/) when missing and keeping everything else in it; written atomically
// (process/json_file.hpp). A file that is not a JSON object is left alone and reported.
util::Status save_local_rules(const std::filesystem::path& project, permissions::RuleList list,
                              const std::vector<std::string>& rules);

}  // namespace nib::app
