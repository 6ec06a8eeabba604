#pragma once
// permissions.defaultMode of the settings files: the permission mode a run starts in when
// --permission-mode names none. Read from the same documents as the rules (rule_set.hpp's
// RuleSource), nib's and Claude Code's alike; the strongest file that sets it wins. Pure.

#include <optional>
#include <vector>

#include "permissions/permission_mode.hpp"
#include "permissions/rule_set.hpp"
#include "util/result.hpp"

namespace nib::permissions {

// The mode the last of `sources` (weakest first) that sets one names; nullopt when none does.
// A value that names no mode fails naming the file ("FILE: permissions.defaultMode: ...").
util::Result<std::optional<PermissionMode>> read_default_mode(
    const std::vector<RuleSource>& sources);

}  // namespace nib::permissions
