#pragma once
// The permission layer of a run, from the flags and the settings: the mode it starts in, the
// rules, and the hosts the rules open to web_fetch (README "Permission modes"). The run's guard
// (run_guard.hpp) puts them together. Pure apart from the rule files it is handed.

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "app/cli.hpp"
#include "app/settings.hpp"
#include "permissions/permission_mode.hpp"
#include "permissions/rule_set.hpp"
#include "util/result.hpp"

namespace nib::app {

// --permission-mode, else the settings' permissions.defaultMode (permissions/default_mode.hpp)
// of `sources` (rule_sources), else auto. A failure names the flag or the file.
util::Result<permissions::PermissionMode> starting_mode(
    const CliOptions& options, const std::vector<permissions::RuleSource>& sources);

// Every settings file's permission rules and the built-in defaults; a broken rule fails naming
// its file and index ("nib: FILE: permissions.allow[2]: ...").
util::Result<std::shared_ptr<const permissions::RuleSet>> load_rules(
    const Configuration& configuration, const std::filesystem::path& home);

// The hosts web_fetch may reach on loopback and private addresses: those a
// WebFetch(domain:...) allow rule names and no rule denies or asks about. A bare "WebFetch"
// allow opens public hosts only: reaching into the user's network takes naming the host.
// Empty without rules.
std::function<bool(std::string_view host)> hosts_opened_to_web_fetch(
    std::shared_ptr<const permissions::RuleSet> rules);

}  // namespace nib::app
