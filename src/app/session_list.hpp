#pragma once
// `nib sessions`: the working directory's saved sessions, newest first, one line each: the id
// (its first digits are enough for --resume), the start time, the number of messages and the
// first prompt.

#include <filesystem>
#include <ostream>

#include "app/environment.hpp"

namespace nib::app {

// Prints the list to `out` (a problem to `err`); returns the exit status.
int list_sessions(const EnvLookup& env, const std::filesystem::path& cwd, std::ostream& out,
                  std::ostream& err);

}  // namespace nib::app
