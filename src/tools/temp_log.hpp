#pragma once
// Private log files for output too long to show: created 0600 in a per-user directory
// ($TMPDIR/nib-<uid>, else /tmp/nib-<uid>, mode 0700) that is checked to be a real directory
// owned by this user, so another user can neither read the logs nor plant a symlink there.
// Thread-safe.

#include <filesystem>
#include <string>
#include <string_view>

#include "tools/unique_fd.hpp"

namespace nib::tools {

// What follows a log's path in a result: how the model sees more of it.
inline constexpr std::string_view kReadLogHint = " (read it with offset and limit, or grep it).";

// An open, empty log file, or the reason there is none (`error` set, `fd` invalid).
struct LogFile {
  UniqueFd fd;
  std::filesystem::path path;
  std::string error;
};

// The per-user directory for logs, created if missing; an error text in `error` when it
// cannot be created or fails the ownership/symlink checks.
struct PrivateDir {
  UniqueFd fd;
  std::filesystem::path path;
  std::string error;
};
PrivateDir open_private_temp_dir();

// The directory `path`, created (mode 0700) if missing, opened without following a symbolic
// link, and checked to belong to this user; its mode is made 0700 if it was wider.
PrivateDir open_private_dir(const std::filesystem::path& path);

// Creates a new log file named "<prefix>-<pid>-<n>.log" in `dir` (mode 0600, never replacing
// an existing file).
LogFile create_log_in(const PrivateDir& dir, std::string_view prefix);

// create_log_in(open_private_temp_dir(), prefix).
LogFile create_private_log(std::string_view prefix);

}  // namespace nib::tools
