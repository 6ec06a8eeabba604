#include "sandbox/sandbox_probe.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string_view>
#include <system_error>

#include "process/subprocess.hpp"
#include "sandbox/bubblewrap_arguments.hpp"
#include "sandbox/landlock_rules.hpp"
#include "sandbox/probe_memory.hpp"
#include "sandbox/wait_child.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;

// bubblewrap's complaint is one line; more is not worth keeping.
constexpr std::size_t kMaxComplaintBytes = 4096;

struct Cause {
  std::string cause;
  std::string fix;
};

fs::path find_on_path(std::string_view program) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path != nullptr ? path : "/usr/bin:/bin";
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const fs::path candidate = fs::path(rest.substr(0, colon)) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
  }
  return {};
}

// The value of a sysctl file ("kernel/foo"), or empty.
std::string sysctl(const fs::path& root, const char* name) {
  std::ifstream in(root / name);
  std::string value;
  in >> value;
  return value;
}

// Runs bubblewrap with the commands' flags around /bin/true: empty when it worked, else what it
// printed (or why it could not start).
std::string try_bubblewrap(const fs::path& bubblewrap) {
  process::SpawnRequest request{.argv = {bubblewrap.string()}, .cwd = "/"};
  const auto flags = isolation_flags();
  request.argv.insert(request.argv.end(), flags.begin(), flags.end());
  request.argv.insert(request.argv.end(), {"--unshare-net", "--", "/bin/true"});
  request.environment = {"PATH=/usr/bin:/bin"};
  auto spawned = process::spawn_process(request);
  if (!spawned.ok()) return spawned.error();
  std::string complaint;
  char buffer[512];
  while (true) {
    pollfd ready{spawned.value().stderr_fd.get(), POLLIN, 0};
    ::poll(&ready, 1, -1);
    const ssize_t got = ::read(ready.fd, buffer, sizeof buffer);
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) break;
    if (got > 0 && complaint.size() < kMaxComplaintBytes) complaint.append(buffer, got);
  }
  const int status = wait_registered_child(spawned.value().pid);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  while (!complaint.empty() && (complaint.back() == '\n' || complaint.back() == ' ')) {
    complaint.pop_back();
  }
  if (const std::size_t newline = complaint.find('\n'); newline != std::string::npos) {
    complaint.resize(newline);
  }
  return complaint.empty() ? "bubblewrap failed (status " + std::to_string(status) + ")"
                           : complaint;
}

// Why bubblewrap failed, from the kernel settings that usually cause it.
Cause diagnose(const fs::path& sysctl_root, const std::string& complaint) {
  if (sysctl(sysctl_root, "kernel/apparmor_restrict_unprivileged_userns") == "1") {
    return {"bubblewrap cannot create namespaces: kernel.apparmor_restrict_unprivileged_userns=1",
            "sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile "
            "that allows userns for /usr/bin/bwrap"};
  }
  if (sysctl(sysctl_root, "kernel/unprivileged_userns_clone") == "0") {
    return {"bubblewrap cannot create namespaces: kernel.unprivileged_userns_clone=0",
            "sudo sysctl kernel.unprivileged_userns_clone=1"};
  }
  if (sysctl(sysctl_root, "user/max_user_namespaces") == "0") {
    return {"bubblewrap cannot create namespaces: user.max_user_namespaces=0",
            "sudo sysctl user.max_user_namespaces=15000"};
  }
  return {"bubblewrap cannot create namespaces (" + complaint + ")",
          "in a container, allow user namespaces (e.g. Docker's --security-opt "
          "seccomp=unconfined --security-opt apparmor=unconfined) or run nib outside it"};
}

std::string landlock_line(int abi, const Cause& cause) {
  std::string line = "sandbox: Landlock only, since " + cause.cause + " (fix: " + cause.fix +
                     "): files outside the working tree and temp directories are read-only";
  line += landlock_blocks_tcp(abi) ? ", TCP is blocked (loopback too)"
                                   : ", but the network is not blocked";
  line += landlock_scopes_signals(abi) ? "" : ", processes outside can be signalled";
  return line +
         ", there is no pid namespace, and .git/hooks, .git/config, .nib/, .claude/ and "
         ".mcp.json inside the tree are not protected";
}

ProbeVerdict bubblewrap_verdict(const fs::path& bubblewrap) {
  return {.confinement = Confinement::kBubblewrap,
          .line =
              "sandbox: bubblewrap: the working tree, temp and cache directories are "
              "writable, the rest read-only; no network but loopback shared between commands",
          .bubblewrap = bubblewrap,
          .landlock_abi = 0};
}

}  // namespace

ProbeVerdict probe_sandbox(const ProbeOptions& options) {
  const fs::path bubblewrap =
      options.bubblewrap.empty() ? find_on_path("bwrap") : options.bubblewrap;
  Cause cause;
  if (bubblewrap.empty() || ::access(bubblewrap.c_str(), X_OK) != 0) {
    cause = {"bubblewrap is not installed", "apt install bubblewrap"};
  } else {
    const std::string fingerprint =
        options.memory.empty() ? std::string() : probe_fingerprint(bubblewrap, options.sysctl_root);
    if (remembers_working(options.memory, fingerprint)) return bubblewrap_verdict(bubblewrap);
    const std::string complaint = try_bubblewrap(bubblewrap);
    if (complaint.empty()) {
      remember_working(options.memory, fingerprint);
      return bubblewrap_verdict(bubblewrap);
    }
    cause = diagnose(options.sysctl_root, complaint);
  }
  ProbeVerdict verdict;
  verdict.landlock_abi = options.landlock_abi ? *options.landlock_abi : landlock_abi();
  if (verdict.landlock_abi > 0) {
    verdict.confinement = Confinement::kLandlock;
    verdict.line = landlock_line(verdict.landlock_abi, cause);
  } else {
    verdict.line = "sandbox: none, since " + cause.cause + " (fix: " + cause.fix +
                   ") and Landlock is not available (Linux 5.13 or later with Landlock "
                   "enabled): commands cannot be confined";
  }
  return verdict;
}

}  // namespace nib::sandbox
