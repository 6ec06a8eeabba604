#pragma once
// `nib permissions explain 'COMMAND'` (or `explain TOOL 'JSON'`): how the permission rules
// decide a call — the command's split, each part's deciding rule with its file and index, and
// the decision. `nib permissions check`: rules that never match or are shadowed.

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "app/environment.hpp"

namespace nib::app {

// `args` are the words after "permissions". Exit status: 0 done (check: no problems), 1 check
// found problems, 2 bad usage or a broken rule.
int run_permissions_command(const std::vector<std::string>& args, const EnvLookup& env,
                            const std::filesystem::path& cwd, std::ostream& out, std::ostream& err);

}  // namespace nib::app
