#pragma once
// What the approval prompt's "always" saves: one generalised rule per simple command
// (`npm test --watch` → `Bash(npm test:*)`, never the whole compound line), and the settings
// document with rules added. Pure; thread-safe.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "permissions/rule.hpp"
#include "permissions/shell_split.hpp"

namespace nib::permissions {

// The rule allowing commands like `command`: its program and, for programs whose first
// argument names what they do (git, npm, cargo, docker, ...), that subcommand ("npm run" keeps
// the script too) as a prefix: `git log -5` → `Bash(git log:*)`, `./build.sh x` →
// `Bash(./build.sh:*)`, `sudo apt install x` → `Bash(sudo apt install:*)`. nullopt when the
// program is only known when it runs (`$CMD x`) or nothing runs.
std::optional<std::string> generalise(const SimpleCommand& command);

// `document` (a settings file's JSON, or null for a new file) with `rules` appended to
// permissions.<list>, each once; everything else kept as it was.
nlohmann::json with_rules_added(nlohmann::json document, RuleList list,
                                const std::vector<std::string>& rules);

}  // namespace nib::permissions
