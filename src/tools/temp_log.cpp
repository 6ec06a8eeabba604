#include "tools/temp_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace nib::tools {
namespace {

// Attempts at a fresh name before giving up; only stale files from an earlier process with the
// same pid can collide.
constexpr int kMaxNameAttempts = 1000;

std::filesystem::path temp_base() {
  const char* tmpdir = std::getenv("TMPDIR");
  if (tmpdir != nullptr && tmpdir[0] == '/') return tmpdir;
  return "/tmp";
}

std::string errno_text(int error) {
  return std::strerror(error);
}

}  // namespace

PrivateDir open_private_temp_dir() {
  return open_private_dir(temp_base() / ("nib-" + std::to_string(::geteuid())));
}

PrivateDir open_private_dir(const std::filesystem::path& path) {
  PrivateDir dir;
  dir.path = path;
  if (::mkdir(dir.path.c_str(), 0700) != 0 && errno != EEXIST) {
    dir.error = "cannot create " + dir.path.string() + ": " + errno_text(errno);
    return dir;
  }
  // O_NOFOLLOW refuses a symlink planted in place of the directory.
  UniqueFd fd(::open(dir.path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) {
    dir.error = "cannot open " + dir.path.string() + ": " + errno_text(errno);
    return dir;
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    dir.error = "cannot inspect " + dir.path.string() + ": " + errno_text(errno);
    return dir;
  }
  if (info.st_uid != ::geteuid()) {
    dir.error = dir.path.string() + " belongs to another user";
    return dir;
  }
  if ((info.st_mode & 077) != 0 && ::fchmod(fd.get(), 0700) != 0) {
    dir.error = "cannot make " + dir.path.string() + " private: " + errno_text(errno);
    return dir;
  }
  dir.fd = std::move(fd);
  return dir;
}

LogFile create_log_in(const PrivateDir& dir, std::string_view prefix) {
  LogFile log;
  if (!dir.fd.valid()) {
    log.error = dir.error;
    return log;
  }
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < kMaxNameAttempts; ++attempt) {
    const std::string name = std::string(prefix) + "-" + std::to_string(::getpid()) + "-" +
                             std::to_string(counter.fetch_add(1) + 1) + ".log";
    const int fd = ::openat(dir.fd.get(), name.c_str(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
      log.fd.reset(fd);
      log.path = dir.path / name;
      return log;
    }
    if (errno != EEXIST) {
      log.error = "cannot create a log in " + dir.path.string() + ": " + errno_text(errno);
      return log;
    }
  }
  log.error = "cannot find a free log name in " + dir.path.string();
  return log;
}

LogFile create_private_log(std::string_view prefix) {
  return create_log_in(open_private_temp_dir(), prefix);
}

}  // namespace nib::tools
