#pragma once
// `nib sessions`: the working directory's saved sessions, newest first, one line each: the id
// (its first digits are enough for --resume), the start time, the number of messages and the
// first prompt.

#include <filesystem>
#include <ostream>
#include <string>

#include "app/environment.hpp"
#include "session/session_summary.hpp"

namespace nib::app {

// "ab12cd34  2026-11-30T17:20  12 messages  fix the flaky test": one stored session (also the
// interactive /resume picker's entries).
std::string describe_session(const session::SessionSummary& summary);

// Prints the list to `out` (a problem to `err`); returns the exit status.
int list_sessions(const EnvLookup& env, const std::filesystem::path& cwd, std::ostream& out,
                  std::ostream& err);

}  // namespace nib::app
