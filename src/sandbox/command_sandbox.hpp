#pragma once
// The command sandbox: the CommandLauncher (tools/command_launcher.hpp) that the application
// hands to the bash tool (and background jobs). Each command runs with the root file system
// read-only; the working tree, the temp directories, the private cache directory
// (sandbox_environment.hpp) and the settings' extra writable paths writable; the protected
// paths inside the tree read-only (protected_paths.hpp); a private /dev, /proc, pid and IPC
// namespace; a new session; no capabilities; and the network namespace shared by all of this
// object's commands (shared_network.hpp), loopback only — or the host's network when the call
// or the settings ask for it.
//
// How depends on the probe's verdict (sandbox_probe.hpp), taken once, on first need: bubblewrap;
// else Landlock for the file system rules; else launch() refuses every command with the
// verdict's line, so nothing runs unconfined without the caller deciding so (by not passing
// this launcher, e.g. after the user approved it).
// Thread-safe: launch() may run on several threads at once.

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sandbox/protected_paths.hpp"
#include "sandbox/sandbox_probe.hpp"
#include "sandbox/sandbox_settings.hpp"
#include "sandbox/shared_network.hpp"
#include "tools/command_launcher.hpp"

namespace nib::sandbox {

struct SandboxOptions {
  std::filesystem::path tree;        // the working tree (made absolute)
  std::filesystem::path cache_root;  // the private cache directory (default_cache_root)
  SandboxSettings settings;
  ProbeOptions probe;
};

class CommandSandbox final : public tools::CommandLauncher {
 public:
  explicit CommandSandbox(SandboxOptions options);

  // The probe's verdict, probing on the first call.
  const ProbeVerdict& verdict() const;
  // True unless the verdict is kNone: commands given to launch() run confined.
  bool active() const { return verdict().confinement != Confinement::kNone; }
  const std::vector<std::string>& excluded_commands() const {
    return options_.settings.excluded_commands;
  }
  // Empty, or why commands got a network namespace each instead of the shared one (loopback
  // then works only within one command).
  std::string network_problem() const;

  util::Result<tools::Launch> launch(tools::SpawnRequest request,
                                     tools::LaunchMode mode) const override;
  bool runs_outside(std::string_view command) const override;
  std::string describe() const override;

 private:
  // The writable paths that exist, resolved: tree, temp directories, caches, extra.
  std::vector<std::filesystem::path> writable_paths() const;
  // The shared network's namespaces to join, or empty when it could not be made (the command
  // then gets a private one).
  std::vector<int> shared_network() const;
  util::Result<tools::Launch> with_bubblewrap(tools::SpawnRequest request, bool network) const;
  util::Result<tools::Launch> with_landlock(tools::SpawnRequest request, bool network) const;

  const SandboxOptions options_;
  mutable std::once_flag probed_;
  mutable ProbeVerdict verdict_;
  mutable std::once_flag caches_made_;
  mutable bool caches_ok_ = false;
  mutable ProtectedPaths protected_paths_;
  mutable std::mutex network_mutex_;
  mutable bool network_tried_ = false;
  mutable std::unique_ptr<SharedNetwork> network_;
  mutable std::string network_problem_;  // why there is no shared network, if there is none
};

}  // namespace nib::sandbox
