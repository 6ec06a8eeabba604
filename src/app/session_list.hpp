#pragma once
// `nib sessions`: the working directory's saved sessions, newest first, one line each: the id
// (its first digits are enough for --resume), the start time, the number of messages and the
// first prompt.

#include <filesystem>
#include <ostream>
#include <string>

#include "session/session_summary.hpp"
#include "util/user_places.hpp"

namespace nib::app {

// "ab12cd34  2026-11-30T17:20  12 messages  fix the flaky test": one stored session (also the
// interactive /resume picker's entries).
std::string describe_session(const session::SessionSummary& summary);

// Prints the list of the sessions kept in `places` to `out` (a problem to `err`); returns the
// exit status.
int list_sessions(const util::UserPlaces& places, const std::filesystem::path& cwd,
                  std::ostream& out, std::ostream& err);

}  // namespace nib::app
