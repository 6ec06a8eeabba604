#include "tools/file_tracker.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <vector>

namespace nib::tools {
namespace {

// Links followed from one path before giving up, as the kernel's own limit (ELOOP) does.
constexpr int kMaxSymlinkHops = 40;
// Bytes hashed per pread call while taking a file's state.
constexpr std::size_t kHashChunkBytes = 1024 * 1024;

std::int64_t mtime_ns(const struct stat& info) {
  return static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
}

}  // namespace

std::uint64_t content_hash(std::string_view bytes) {
  return XXH3_64bits(bytes.data(), bytes.size());
}

FileState file_state(const struct stat& info, std::string_view bytes) {
  FileState state;
  state.device = static_cast<std::uint64_t>(info.st_dev);
  state.inode = static_cast<std::uint64_t>(info.st_ino);
  state.size = static_cast<std::uint64_t>(info.st_size);
  state.mtime_ns = mtime_ns(info);
  if (state.size <= kMaxHashedFileBytes) state.hash = content_hash(bytes);
  return state;
}

std::optional<FileState> file_state_of(int fd, const struct stat& before, std::stop_token stop) {
  const auto size = static_cast<std::uint64_t>(before.st_size);
  if (size > kMaxHashedFileBytes) return file_state(before, {});
  // Read up to one byte past the size seen: a file that grew meanwhile then hashes differently.
  std::string bytes;
  std::vector<char> buffer(std::min<std::size_t>(kHashChunkBytes, size + 1));
  while (bytes.size() < size + 1) {
    if (stop.stop_requested()) return std::nullopt;
    const ssize_t count =
        pread(fd, buffer.data(), std::min<std::size_t>(buffer.size(), size + 1 - bytes.size()),
              static_cast<off_t>(bytes.size()));
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return std::nullopt;
    if (count == 0) break;
    bytes.append(buffer.data(), static_cast<std::size_t>(count));
  }
  return file_state(before, bytes);
}

std::filesystem::path resolve_file(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  fs::path current = path.lexically_normal();
  for (int hop = 0; hop < kMaxSymlinkHops; ++hop) {
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(current, error)) || error) break;
    const fs::path target = fs::read_symlink(current, error);
    if (error) break;
    // A relative target is relative to the directory holding the link, as the kernel sees it.
    const fs::path base = fs::weakly_canonical(current.parent_path(), error);
    if (error) break;
    current = (target.is_absolute() ? target : base / target).lexically_normal();
  }
  std::error_code error;
  fs::path resolved = fs::weakly_canonical(current, error);
  return error ? current : resolved.lexically_normal();
}

void FileTracker::record(const std::filesystem::path& path, const FileState& state) {
  const std::lock_guard lock(mutex_);
  seen_.insert_or_assign(path.string(), state);
}

Freshness FileTracker::check(const std::filesystem::path& path, const FileState& current) const {
  const auto seen = last_seen(path);
  if (!seen) {
    return unseen_ == UnseenFiles::kTrustCurrent ? Freshness::kUnchanged : Freshness::kNeverSeen;
  }
  return *seen == current ? Freshness::kUnchanged : Freshness::kChanged;
}

std::optional<FileState> FileTracker::last_seen(const std::filesystem::path& path) const {
  const std::lock_guard lock(mutex_);
  const auto it = seen_.find(path.string());
  if (it == seen_.end()) return std::nullopt;
  return it->second;
}

}  // namespace nib::tools
