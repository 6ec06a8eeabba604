#pragma once
// Reading environment variables through a seam, so configuration code is pure and tests pass
// their own environment instead of touching the process's.

#include <functional>
#include <optional>
#include <string>

namespace nib::app {

// Looks up an environment variable; nullopt when unset or empty.
using EnvLookup = std::function<std::optional<std::string>(const char*)>;

// The process's own environment.
EnvLookup process_environment();

}  // namespace nib::app
