#include "tools/file_tracker.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <vector>

namespace nib::tools {
namespace {

// Links followed from one path before giving up, as the kernel's own limit (ELOOP) does.
constexpr int kMaxSymlinkHops = 40;
// Bytes hashed per pread call while taking a file's state.
constexpr std::size_t kHashChunkBytes = 1024 * 1024;

constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ULL;

std::uint64_t load64(const char* bytes) {
  std::uint64_t word;
  std::memcpy(&word, bytes, sizeof word);
  return word;
}

std::uint64_t round(std::uint64_t lane, std::uint64_t word) {
  return std::rotl(lane + word * kPrime2, 31) * kPrime1;
}

// The final avalanche of splitmix64: every input bit affects every output bit.
std::uint64_t mix(std::uint64_t value) {
  value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
  value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
  return value ^ (value >> 31);
}

std::int64_t mtime_ns(const struct stat& info) {
  return static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
}

}  // namespace

std::uint64_t content_hash(std::string_view bytes) {
  // Four independent lanes over 32-byte blocks keep the multiplier pipelines busy: several
  // bytes per cycle, where byte-at-a-time FNV-1a manages well under one.
  const char* data = bytes.data();
  const std::size_t size = bytes.size();
  std::uint64_t lanes[4] = {kPrime1 + kPrime2, kPrime2, 0, 0 - kPrime1};
  std::size_t pos = 0;
  for (; pos + 32 <= size; pos += 32) {
    for (int lane = 0; lane < 4; ++lane)
      lanes[lane] = round(lanes[lane], load64(data + pos + 8 * lane));
  }
  std::uint64_t hash = std::rotl(lanes[0], 1) + std::rotl(lanes[1], 7) + std::rotl(lanes[2], 12) +
                       std::rotl(lanes[3], 18) + size;
  for (; pos + 8 <= size; pos += 8)
    hash = std::rotl(hash ^ round(0, load64(data + pos)), 27) * kPrime1 + kPrime3;
  for (; pos < size; ++pos) {
    hash = std::rotl(hash ^ (static_cast<unsigned char>(data[pos]) * kPrime3), 11) * kPrime1;
  }
  return mix(hash);
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
