#include "sandbox/bubblewrap_arguments.hpp"

namespace nib::sandbox {

std::vector<std::string> isolation_flags() {
  return {"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid",
          "--unshare-ipc", "--new-session",
          // For root, bubblewrap keeps every capability unless told otherwise, and with
          // CAP_SYS_ADMIN a command could simply remount / writable; for anyone else this
          // changes nothing.
          "--cap-drop", "ALL"};
}

std::vector<std::string> bubblewrap_argv(const BubblewrapPlan& plan,
                                         const std::vector<std::string>& command,
                                         const std::filesystem::path& cwd) {
  std::vector<std::string> argv{plan.bubblewrap.string()};
  const std::vector<std::string> flags = isolation_flags();
  argv.insert(argv.end(), flags.begin(), flags.end());
  for (const auto& path : plan.writable) argv.insert(argv.end(), {"--bind", path, path});
  for (const auto& path : plan.pinned) argv.insert(argv.end(), {"--bind", path, path});
  for (const auto& path : plan.read_only) argv.insert(argv.end(), {"--ro-bind", path, path});
  if (plan.network == NetworkChoice::kPrivate) argv.push_back("--unshare-net");
  argv.insert(argv.end(), {"--chdir", cwd.string(), "--"});
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

}  // namespace nib::sandbox
