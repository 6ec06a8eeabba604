#include "process/atomic_write.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <random>

#include "process/unique_fd.hpp"
#include "util/utf8.hpp"

namespace nib::process {
namespace {

// Attempts at an unused temporary name before giving up: a clash needs another file with the
// same random 64-bit suffix, so a second attempt practically always succeeds.
constexpr int kMaxNameAttempts = 16;
// The part of the target's name the temporary name repeats, so that the whole stays within
// the usual 255-byte name limit.
constexpr std::size_t kMaxNameStemBytes = 200;

std::string random_suffix() {
  thread_local std::mt19937_64 generator{std::random_device{}() ^
                                         (static_cast<std::uint64_t>(getpid()) << 32)};
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(generator()));
  return text;
}

// Writes all of `bytes` to `fd`; errno is set when it returns false.
bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t count = ::write(fd, bytes.data(), bytes.size());
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(count));
  }
  return true;
}

// `result` as failed at `step`, for the reason errno gives.
AtomicWriteResult failed(AtomicWriteResult result, std::string step) {
  result.error_number = errno;
  result.failed_step = std::move(step);
  return result;
}

// Writes `bytes` over the file at `path` in place, keeping its inode (and so its other hard
// links, permissions and owner). Not atomic: see the header.
AtomicWriteResult write_in_place(const std::filesystem::path& path, std::string_view bytes) {
  AtomicWriteResult result;
  const auto fail = [&](std::string step) { return failed(result, std::move(step)); };
  // No O_TRUNC: the new content is written over the old and the rest cut off afterwards, so a
  // failure to open leaves the file whole.
  const UniqueFd file(open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY));
  if (!file.valid()) return fail("open " + path.string() + " for writing");
  result.in_place = true;  // from here on, a failure may leave part of `bytes` in the file
  if (!write_all(file.get(), bytes)) return fail("write " + path.string());
  if (ftruncate(file.get(), static_cast<off_t>(bytes.size())) != 0) {
    return fail("cut " + path.string() + " to its new size");
  }
  if (fsync(file.get()) != 0) return fail("flush " + path.string() + " to disk");
  fstat(file.get(), &result.written);
  return result;
}

}  // namespace

AtomicWriteResult atomic_write(const std::filesystem::path& path, std::string_view bytes,
                               const std::optional<struct stat>& existing) {
  if (existing && existing->st_nlink > 1) return write_in_place(path, bytes);
  AtomicWriteResult result;
  const auto fail = [&](std::string step) { return failed(result, std::move(step)); };
  const std::filesystem::path directory = path.parent_path();
  // Cut between characters, so that a UTF-8 name gives a UTF-8 temporary name.
  const std::string name = path.filename().string();
  const std::string stem = name.substr(0, util::utf8_prefix_length(name, kMaxNameStemBytes));
  // 0600 while the content is written, so that a file that was private is never readable by
  // others, not even briefly; without an old file, what a plain create would give.
  const mode_t create_mode = existing ? 0600 : 0666;

  std::filesystem::path temporary;
  UniqueFd file;
  for (int attempt = 0; attempt < kMaxNameAttempts && !file.valid(); ++attempt) {
    temporary = directory / ("." + stem + ".nib-" + random_suffix());
    file.reset(
        open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, create_mode));
    if (!file.valid() && errno != EEXIST) break;
  }
  if (!file.valid()) return fail("create a temporary file in " + directory.string());

  const auto fail_and_remove = [&](std::string step) {
    const int saved = errno;
    unlink(temporary.c_str());
    errno = saved;
    return fail(std::move(step));
  };
  if (!write_all(file.get(), bytes)) return fail_and_remove("write " + temporary.string());
  if (existing) {
    // Owner first: changing it can clear set-user-ID bits that the mode then restores. Only a
    // privileged process may give a file away; otherwise the new file is simply ours.
    if (fchown(file.get(), existing->st_uid, existing->st_gid) != 0 && errno != EPERM) {
      return fail_and_remove("set the owner of " + temporary.string());
    }
    if (fchmod(file.get(), existing->st_mode & 07777) != 0) {
      return fail_and_remove("set the permissions of " + temporary.string());
    }
  }
  if (fsync(file.get()) != 0) return fail_and_remove("flush " + temporary.string() + " to disk");
  if (rename(temporary.c_str(), path.c_str()) != 0) {
    return fail_and_remove("rename " + temporary.string() + " to " + path.string());
  }
  fstat(file.get(), &result.written);
  // Make the rename itself durable. Best effort: the file is already in place, and some file
  // systems cannot sync a directory.
  const UniqueFd parent(open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (parent.valid()) fsync(parent.get());
  return result;
}

}  // namespace nib::process
