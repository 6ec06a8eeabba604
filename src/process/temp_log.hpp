#pragma once
// Private log files for output too long to show: created 0600 in a per-user directory
// (nib-<uid>, mode 0700, in the process's temp directory: util/user_places.hpp, $TMPDIR else
// /tmp) that is checked to be a real directory owned by this user, so another user can neither
// read the logs nor plant a symlink there.
// Thread-safe.

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "process/unique_fd.hpp"
#include "util/result.hpp"

namespace nib::process {

// What follows a log's path in a result: how the model sees more of it.
inline constexpr std::string_view kReadLogHint = " (read it with offset and limit, or grep it).";

// An open, empty log file.
struct LogFile {
  UniqueFd fd;
  std::filesystem::path path;
};

// An open directory of this user's that no one else may enter.
struct PrivateDir {
  UniqueFd fd;
  std::filesystem::path path;
};

// The per-user directory for logs, created if missing; a failure when it cannot be created or
// fails the ownership/symlink checks.
util::Result<PrivateDir> open_private_temp_dir();

// The directory `path`, created (mode 0700) if missing, opened without following a symbolic
// link, and checked to belong to this user; its mode is made 0700 if it was wider.
util::Result<PrivateDir> open_private_dir(const std::filesystem::path& path);

// Creates a new log file named "<prefix>-<pid>-<n>.log" in `dir` (mode 0600, never replacing
// an existing file).
util::Result<LogFile> create_log_in(const PrivateDir& dir, std::string_view prefix);

// create_log_in(open_private_temp_dir(), prefix), or why the directory cannot be had.
util::Result<LogFile> create_private_log(std::string_view prefix);

// How a tool gets a new log for output too long to show; `prefix` names what it holds.
using LogCreator = std::function<util::Result<LogFile>(std::string_view prefix)>;

// A LogCreator putting the logs in the private directory `dir` (open_private_dir) instead of
// the per-user one: for tests and benchmarks that keep their logs apart.
LogCreator private_logs_in(std::filesystem::path dir);

}  // namespace nib::process
