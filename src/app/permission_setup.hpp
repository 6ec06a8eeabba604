#pragma once
// The permission layer of a run, from the flags and the settings: the mode it starts in and
// the options of its policy (README "Permission modes"). Pure apart from what the sandbox
// probe and the rule files it is handed have read.

#include "app/cli.hpp"
#include "app/settings.hpp"
#include "permissions/permission_policy.hpp"
#include "util/result.hpp"

namespace nib::app {

// --permission-mode, else the strongest settings source's permissions.defaultMode (nib's or
// Claude Code's), else auto. A failure names the flag or the file.
util::Result<permissions::PermissionMode> starting_mode(const CliOptions& options,
                                                        const Configuration& configuration);

// The policy's options for a run in `cwd` (the working tree) in `mode`, commands confined as
// `sandbox` says.
permissions::PolicyOptions policy_options(permissions::PermissionMode mode,
                                          const CliOptions& options,
                                          const std::filesystem::path& cwd,
                                          permissions::SandboxState sandbox);

}  // namespace nib::app
