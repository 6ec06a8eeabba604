#include "sandbox/bubblewrap_arguments.hpp"
#include "util/path_within.hpp"

namespace nib::sandbox {

namespace {

// The flags but the pid namespace's.
std::vector<std::string> shared_flags() {
  return {"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-ipc",
          "--new-session",
          // For root, bubblewrap keeps every capability unless told otherwise, and with
          // CAP_SYS_ADMIN a command could simply remount / writable; for anyone else this
          // changes nothing.
          "--cap-drop", "ALL"};
}

}  // namespace

std::vector<std::string> isolation_flags() {
  std::vector<std::string> flags = shared_flags();
  flags.push_back("--unshare-pid");
  return flags;
}

std::vector<std::string> bubblewrap_argv(const BubblewrapPlan& plan,
                                         const std::vector<std::string>& command,
                                         const std::filesystem::path& cwd) {
  std::vector<std::string> argv{plan.bubblewrap.string()};
  if (plan.user_namespace_fd >= 0) {
    argv.insert(argv.end(), {"--userns", std::to_string(plan.user_namespace_fd)});
  }
  if (plan.pid_namespace_fd >= 0) {
    argv.insert(argv.end(), {"--pidns", std::to_string(plan.pid_namespace_fd)});
  }
  const std::vector<std::string> flags =
      plan.pid_namespace_fd >= 0 ? shared_flags() : isolation_flags();
  argv.insert(argv.end(), flags.begin(), flags.end());
  if (plan.seccomp_fd >= 0) argv.insert(argv.end(), {"--seccomp", std::to_string(plan.seccomp_fd)});
  for (const auto& path : plan.writable) argv.insert(argv.end(), {"--bind", path, path});
  if (!plan.read_only_home.empty()) {
    const std::filesystem::path& home = plan.read_only_home;
    argv.insert(argv.end(), {"--ro-bind", home, home});
    for (const auto& path : plan.writable) {
      if (util::is_within(home, path)) argv.insert(argv.end(), {"--bind", path, path});
    }
  }
  for (const auto& path : plan.pinned) argv.insert(argv.end(), {"--bind", path, path});
  for (const auto& path : plan.read_only) argv.insert(argv.end(), {"--ro-bind", path, path});
  for (const auto& path : plan.hidden_directories) {
    argv.insert(argv.end(), {"--tmpfs", path, "--remount-ro", path});
  }
  for (const auto& path : plan.hidden_files) {
    argv.insert(argv.end(), {"--ro-bind", "/dev/null", path});
  }
  if (plan.network == NetworkChoice::kPrivate) argv.push_back("--unshare-net");
  argv.insert(argv.end(), {"--chdir", cwd.string(), "--"});
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

}  // namespace nib::sandbox
