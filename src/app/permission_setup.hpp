#pragma once
// The permission layer of a run, from the flags and the settings: the mode it starts in and
// the options of its policy (README "Permission modes"). Pure apart from what the sandbox
// probe and the rule files it is handed have read.

#include <functional>
#include <memory>
#include <string_view>

#include "app/cli.hpp"
#include "app/settings.hpp"
#include "permissions/permission_policy.hpp"
#include "sandbox/command_sandbox.hpp"
#include "util/result.hpp"

namespace nib::app {

// --permission-mode, else the strongest settings source's permissions.defaultMode (nib's or
// Claude Code's), else auto. A failure names the flag or the file.
util::Result<permissions::PermissionMode> starting_mode(const CliOptions& options,
                                                        const Configuration& configuration);

// How the policy sees commands run: confined when the sandbox works; when the user switched it
// off (--no-sandbox, "sandbox": {"enabled": false}, yolo), as they chose, without asking; when
// nothing can confine them, not confined, with the probe's line (auto then asks each time).
permissions::SandboxState sandbox_state(const sandbox::CommandSandbox* sandbox);

// Every settings file's permission rules and the built-in defaults; a broken rule fails naming
// its file and index ("nib: FILE: permissions.allow[2]: ...").
util::Result<std::shared_ptr<const permissions::RuleSet>> load_rules(
    const Configuration& configuration, const std::filesystem::path& home);

// The policy's options for a run in `cwd` (the working tree) in `mode`, under `rules`, commands
// confined as `sandbox` says.
permissions::PolicyOptions policy_options(permissions::PermissionMode mode,
                                          const CliOptions& options,
                                          const std::filesystem::path& cwd,
                                          const std::filesystem::path& home,
                                          std::shared_ptr<const permissions::RuleSet> rules,
                                          permissions::SandboxState sandbox);

// The hosts web_fetch may reach on loopback and private addresses: those a
// WebFetch(domain:...) allow rule names and no rule denies or asks about. A bare "WebFetch"
// allow opens public hosts only: reaching into the user's network takes naming the host.
// Empty without rules.
std::function<bool(std::string_view host)> hosts_opened_to_web_fetch(
    std::shared_ptr<const permissions::RuleSet> rules);

}  // namespace nib::app
