#include "sandbox/probe_memory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include "process/temp_log.hpp"
#include "sandbox/bubblewrap_arguments.hpp"
#include "util/fd_io.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;

// A fingerprint is a few hundred bytes; anything much longer is not one of ours.
constexpr std::size_t kMaxFingerprintBytes = 4096;

std::string first_line_of(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string link_target(const char* link) {
  char target[256];
  const ssize_t got = ::readlink(link, target, sizeof target);
  return got > 0 ? std::string(target, static_cast<std::size_t>(got)) : std::string();
}

}  // namespace

std::string probe_fingerprint(const fs::path& bubblewrap, const fs::path& sysctl_root) {
  const std::string boot = first_line_of("/proc/sys/kernel/random/boot_id");
  const std::string user_namespace = link_target("/proc/self/ns/user");
  const std::string mount_namespace = link_target("/proc/self/ns/mnt");
  struct stat program {};
  if (boot.empty() || user_namespace.empty() || mount_namespace.empty() ||
      ::stat(bubblewrap.c_str(), &program) != 0) {
    return {};
  }
  std::string text = "nib sandbox probe\nflags:";
  for (const std::string& flag : isolation_flags()) text += " " + flag;
  text += "\nboot: " + boot + "\nuid: " + std::to_string(::geteuid()) +
          "\nnamespaces: " + user_namespace + " " + mount_namespace +
          "\nbubblewrap: " + bubblewrap.string() + " " + std::to_string(program.st_dev) + ":" +
          std::to_string(program.st_ino) + " " + std::to_string(program.st_size) + " " +
          std::to_string(program.st_mtim.tv_sec) + "." + std::to_string(program.st_mtim.tv_nsec) +
          "\n";
  for (const char* setting : {"kernel/apparmor_restrict_unprivileged_userns",
                              "kernel/unprivileged_userns_clone", "user/max_user_namespaces"}) {
    text += std::string(setting) + ": " + first_line_of(sysctl_root / setting) + "\n";
  }
  return text;
}

bool remembers_working(const fs::path& file, const std::string& fingerprint) {
  if (file.empty() || fingerprint.empty()) return false;
  const auto dir = process::open_private_dir(file.parent_path());
  if (!dir.ok()) return false;
  const process::UniqueFd fd(
      ::openat(dir.value().fd.get(), file.filename().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) return false;
  std::string stored;
  char buffer[1024];
  while (stored.size() <= kMaxFingerprintBytes) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    stored.append(buffer, static_cast<std::size_t>(got));
  }
  return stored == fingerprint;
}

void remember_working(const fs::path& file, const std::string& fingerprint) {
  if (file.empty() || fingerprint.empty()) return;
  const auto dir = process::open_private_dir(file.parent_path());
  if (!dir.ok()) return;
  const std::string name = file.filename().string();
  const std::string temporary = name + ".tmp-" + std::to_string(::getpid());
  {
    const process::UniqueFd fd(::openat(dir.value().fd.get(), temporary.c_str(),
                                        O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
                                        0600));
    if (!fd.valid() || !util::write_all(fd.get(), fingerprint)) {
      ::unlinkat(dir.value().fd.get(), temporary.c_str(), 0);
      return;
    }
  }
  if (::renameat(dir.value().fd.get(), temporary.c_str(), dir.value().fd.get(), name.c_str()) !=
      0) {
    ::unlinkat(dir.value().fd.get(), temporary.c_str(), 0);
  }
}

}  // namespace nib::sandbox
