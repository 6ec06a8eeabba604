#pragma once
// `nib permissions explain 'COMMAND'` (or `explain TOOL 'JSON'`): how the permission rules
// decide a call — the command's split, each part's deciding rule with its file and index, and
// the decision. `nib permissions check`: rules that never match or are shadowed.

#include <filesystem>
#include <ostream>

#include "app/cli.hpp"
#include "util/user_places.hpp"

namespace nib::app {

// Judged by the guard a run with `flags` would have (--permission-mode, --ask, --no-sandbox),
// with the settings `places` name.
// Exit status: 0 done (check: no problems), 1 check found problems, 2 a call that cannot be
// judged (an unknown tool, invalid arguments) or a broken rule.
int run_permissions_command(const PermissionsArgs& args, const CliOptions& flags,
                            const util::UserPlaces& places, const std::filesystem::path& cwd,
                            std::ostream& out, std::ostream& err);

}  // namespace nib::app
