#include "sandbox/landlock_rules.hpp"
#include "util/path_within.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

namespace nib::sandbox {
namespace {

// From the kernel's include/uapi/linux/landlock.h (stable ABI).
struct RulesetAttributes {
  std::uint64_t handled_access_fs;
  std::uint64_t handled_access_net;  // ABI 4
  std::uint64_t scoped;              // ABI 6
};
struct [[gnu::packed]] PathBeneath {
  std::uint64_t allowed_access;
  std::int32_t parent_fd;
};
constexpr unsigned kCreateRulesetVersion = 1U << 0;
constexpr int kRulePathBeneath = 1;

constexpr std::uint64_t kExecute = 1ULL << 0;
constexpr std::uint64_t kWriteFile = 1ULL << 1;
constexpr std::uint64_t kReadFile = 1ULL << 2;
constexpr std::uint64_t kReadDir = 1ULL << 3;
constexpr std::uint64_t kAbi1Access = (1ULL << 13) - 1;  // execute .. make_sym
constexpr std::uint64_t kRefer = 1ULL << 13;             // ABI 2
constexpr std::uint64_t kTruncate = 1ULL << 14;          // ABI 3
constexpr std::uint64_t kIoctlDev = 1ULL << 15;          // ABI 5
constexpr std::uint64_t kBindTcp = 1ULL << 0;
constexpr std::uint64_t kConnectTcp = 1ULL << 1;
constexpr std::uint64_t kScopeAbstractUnixSocket = 1ULL << 0;
constexpr std::uint64_t kScopeSignal = 1ULL << 1;

std::uint64_t handled_file_access(int abi) {
  std::uint64_t access = kAbi1Access;
  if (abi >= 2) access |= kRefer;
  if (abi >= 3) access |= kTruncate;
  if (abi >= 5) access |= kIoctlDev;
  return access;
}

bool allow_beneath(int ruleset, const std::filesystem::path& path, std::uint64_t access) {
  process::UniqueFd directory(::open(path.c_str(), O_PATH | O_CLOEXEC));
  if (!directory.valid()) return errno == ENOENT;  // nothing there to grant
  // A rule for a file may only carry file rights.
  struct stat info {};
  if (::fstat(directory.get(), &info) == 0 && !S_ISDIR(info.st_mode)) {
    access &= kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;
  }
  const PathBeneath rule{.allowed_access = access, .parent_fd = directory.get()};
  return ::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0) == 0;
}

// Grants `access` beneath `path` except the `excluded` places below it: the whole of it when none
// is, else each of its entries on its own, descending towards the excluded ones. An excluded
// place itself, and a link in a directory on their way (it would grant whatever it points to),
// get nothing.
bool allow_beneath_except(int ruleset, const std::filesystem::path& path,
                          const std::vector<std::filesystem::path>& excluded,
                          std::uint64_t access) {
  bool on_the_way = false;
  for (const auto& place : excluded) {
    if (util::is_within(place, path)) return true;  // excluded: nothing to grant
    on_the_way = on_the_way || util::is_within(path, place);
  }
  if (!on_the_way) return allow_beneath(ruleset, path, access);
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    if (entry.is_symlink(error)) continue;
    if (!allow_beneath_except(ruleset, entry.path(), excluded, access)) return false;
  }
  return true;
}

}  // namespace

int landlock_abi() {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  return abi > 0 ? static_cast<int>(abi) : 0;
}

bool landlock_blocks_tcp(int abi) {
  return abi >= 4;
}
bool landlock_scopes_signals(int abi) {
  return abi >= 6;
}

util::Result<process::UniqueFd> landlock_ruleset(int abi, const WritablePlaces& places,
                                                 bool network,
                                                 const std::vector<std::filesystem::path>& hidden) {
  using Result = util::Result<process::UniqueFd>;
  const std::uint64_t handled = handled_file_access(abi);
  RulesetAttributes attributes{
      .handled_access_fs = handled,
      .handled_access_net = !network && landlock_blocks_tcp(abi) ? kBindTcp | kConnectTcp : 0,
      .scoped = landlock_scopes_signals(abi) ? kScopeSignal | kScopeAbstractUnixSocket : 0};
  // Older kernels take the shorter structure (and reject unknown non-zero fields).
  const std::size_t size = abi >= 6   ? sizeof attributes
                           : abi >= 4 ? 2 * sizeof(std::uint64_t)
                                      : sizeof(std::uint64_t);
  process::UniqueFd ruleset(
      static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attributes, size, 0)));
  if (!ruleset.valid()) {
    return Result::failure(std::string("cannot create a Landlock ruleset: ") +
                           std::strerror(errno));
  }
  bool ok = allow_beneath_except(ruleset.get(), "/", hidden, kExecute | kReadFile | kReadDir);
  // Commands write to /dev/null, /dev/tty and the like, and truncate them (`> /dev/null`).
  ok = ok && allow_beneath(ruleset.get(), "/dev", (kWriteFile | kTruncate | kIoctlDev) & handled);
  std::vector<std::filesystem::path> kept;
  if (!places.kept_read_only.empty()) kept.push_back(places.kept_read_only);
  for (const auto& path : places.writable) {
    // A writable place inside the kept one (the tree in the home directory) is granted whole.
    const bool inside_kept = !kept.empty() && util::is_within(kept.front(), path);
    ok = ok && (inside_kept ? allow_beneath(ruleset.get(), path, handled)
                            : allow_beneath_except(ruleset.get(), path, kept, handled));
  }
  if (!ok) {
    return Result::failure(std::string("cannot add a Landlock rule: ") + std::strerror(errno));
  }
  return ruleset;
}

}  // namespace nib::sandbox
