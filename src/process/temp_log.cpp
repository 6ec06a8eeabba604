#include "process/temp_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "util/user_places.hpp"

namespace nib::process {
namespace {

// Attempts at a fresh name before giving up; only stale files from an earlier process with the
// same pid can collide.
constexpr int kMaxNameAttempts = 1000;

std::string errno_text(int error) {
  return std::strerror(error);
}

}  // namespace

util::Result<PrivateDir> open_private_temp_dir() {
  return open_private_dir(util::process_places().temp_dir / ("nib-" + std::to_string(::geteuid())));
}

util::Result<PrivateDir> open_private_dir(const std::filesystem::path& path) {
  using Result = util::Result<PrivateDir>;
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    return Result::failure("cannot create " + path.string() + ": " + errno_text(errno));
  }
  // O_NOFOLLOW refuses a symlink planted in place of the directory.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) {
    return Result::failure("cannot open " + path.string() + ": " + errno_text(errno));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    return Result::failure("cannot inspect " + path.string() + ": " + errno_text(errno));
  }
  if (info.st_uid != ::geteuid())
    return Result::failure(path.string() + " belongs to another user");
  if ((info.st_mode & 077) != 0 && ::fchmod(fd.get(), 0700) != 0) {
    return Result::failure("cannot make " + path.string() + " private: " + errno_text(errno));
  }
  return PrivateDir{std::move(fd), path};
}

util::Result<LogFile> create_log_in(const PrivateDir& dir, std::string_view prefix) {
  using Result = util::Result<LogFile>;
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < kMaxNameAttempts; ++attempt) {
    const std::string name = std::string(prefix) + "-" + std::to_string(::getpid()) + "-" +
                             std::to_string(counter.fetch_add(1) + 1) + ".log";
    const int fd = ::openat(dir.fd.get(), name.c_str(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) return LogFile{UniqueFd(fd), dir.path / name};
    if (errno != EEXIST) {
      return Result::failure("cannot create a log in " + dir.path.string() + ": " +
                             errno_text(errno));
    }
  }
  return Result::failure("cannot find a free log name in " + dir.path.string());
}

util::Result<LogFile> create_private_log(std::string_view prefix) {
  const auto dir = open_private_temp_dir();
  if (!dir.ok()) return util::Result<LogFile>::failure(dir.error());
  return create_log_in(dir.value(), prefix);
}

LogCreator private_logs_in(std::filesystem::path dir) {
  return [dir = std::move(dir)](std::string_view prefix) {
    auto opened = open_private_dir(dir);
    if (!opened.ok()) return util::Result<LogFile>::failure(opened.error());
    return create_log_in(opened.value(), prefix);
  };
}

}  // namespace nib::process
