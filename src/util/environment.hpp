#pragma once
// Reading environment variables through a seam, so that code working something out from them
// (where the user's files go, which provider and key a run uses) is pure, and tests pass their
// own environment instead of changing the process's.

#include <functional>
#include <optional>
#include <string>

namespace nib::util {

// Looks up an environment variable; nullopt when unset or empty.
using EnvLookup = std::function<std::optional<std::string>(const char* name)>;

// The process's own environment.
EnvLookup process_environment();

}  // namespace nib::util
