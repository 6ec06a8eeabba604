#pragma once
// The command sandbox: the CommandLauncher (tools/command_launcher.hpp) that the application
// hands to the bash tool (and background jobs). Each command runs with the root file system
// read-only; the working tree, the temp directories, the private cache directory
// (sandbox_environment.hpp) and the settings' extra writable paths writable; the protected
// paths inside the tree read-only (protected_paths.hpp); the home directory's secret places
// hidden unless a rule allows reading them; no unix sockets (socket_filter.hpp) unless the
// settings name some; a private /dev, /proc and IPC namespace; a new session; no
// capabilities; and the pid and network namespaces shared by all of this object's commands
// (shared_namespaces.hpp): one process table, one loopback-only network — or the host's
// network when the call or the settings ask for it.
//
// How depends on the probe's verdict (sandbox_probe.hpp), taken once, on first need: bubblewrap;
// else Landlock for the file system rules; else launch() refuses every command with the
// verdict's line, so nothing runs unconfined without the caller deciding so (confinement()
// says kUnconfinedUnavailable, and the caller runs it without this launcher after approval).
// Thread-safe: launch() may run on several threads at once.

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "process/command_launcher.hpp"
#include "sandbox/protected_paths.hpp"
#include "sandbox/sandbox_probe.hpp"
#include "sandbox/sandbox_settings.hpp"
#include "sandbox/shared_namespaces.hpp"
#include "sandbox/socket_filter.hpp"
#include "workspace/protected_tree.hpp"

namespace nib::sandbox {

struct SandboxOptions {
  std::filesystem::path tree;  // the working tree (made absolute)
  // The home directory: read-only even where it lies in a writable place (HOME=/tmp/u), but
  // for the writable places inside it. Empty: none.
  std::filesystem::path home;
  std::filesystem::path cache_root;  // the private cache directory (default_cache_root)
  SandboxSettings settings;
  ProbeOptions probe;
  // What in the tree commands may not change (its one owner); null: the tree's own, found from
  // `tree` alone.
  std::shared_ptr<const workspace::ProtectedTree> protected_tree;
  // Places commands must not see at all (the home directory's secret places no rule allows):
  // each that exists is covered by an empty one.
  std::vector<std::filesystem::path> hidden;
  // nib-exec (src/exec_helper), which reports how a command under bubblewrap really ended;
  // empty or missing: a death by signal N reads as the exit status 128+N.
  std::filesystem::path exec_helper;
};

class CommandSandbox final : public process::CommandLauncher {
 public:
  explicit CommandSandbox(SandboxOptions options);

  // The probe's verdict, probing on the first call.
  const ProbeVerdict& verdict() const;
  // True unless the verdict is kNone: commands given to launch() run confined.
  bool active() const { return verdict().confinement != Confinement::kNone; }
  const std::vector<std::string>& excluded_commands() const {
    return options_.settings.excluded_commands;
  }
  // Empty, or why commands got pid and network namespaces each instead of the shared ones
  // (loopback then works only within one command, and a pid only within it).
  std::string network_problem() const;

  // kUnconfinedAsked for "unsandboxed", kUnconfinedExcluded for the settings' excludedCommands,
  // kUnconfinedUnavailable when nothing confines commands here, else kSandboxedNetwork for
  // "network" (the settings' sandbox.network is the user's own choice: kSandboxed).
  core::Confinement confinement(std::string_view command, process::LaunchMode mode) const override;
  std::string unavailable() const override;
  util::Result<process::Launch> launch(process::SpawnRequest request,
                                       process::LaunchMode mode) const override;
  std::string describe() const override;

 private:
  // The writable paths that exist, resolved: tree, temp directories, caches, extra.
  std::vector<std::filesystem::path> writable_paths() const;
  // The home directory, resolved, when it lies below one of `writable` (and is not one of
  // them): it stays read-only. Else empty.
  std::filesystem::path home_inside(const std::vector<std::filesystem::path>& writable) const;
  // The shared namespaces, made on the first command; null when they could not be made (each
  // command then gets namespaces of its own).
  const SharedNamespaces* shared_namespaces() const;
  // The socket filter, or null when the settings lift it (or it could not be built: then
  // launch() refuses, saying why).
  util::Result<const SocketFilter*> socket_filter() const;
  // The places holding the user's own sockets, hidden when the settings lift the filter.
  std::vector<std::filesystem::path> socket_places() const;
  util::Result<process::Launch> with_bubblewrap(process::SpawnRequest request, bool network) const;
  util::Result<process::Launch> with_landlock(process::SpawnRequest request, bool network) const;

  const SandboxOptions options_;
  mutable std::once_flag probed_;
  mutable ProbeVerdict verdict_;
  mutable std::once_flag caches_made_;
  mutable bool caches_ok_ = false;
  mutable ProtectedPaths protected_paths_;
  mutable std::mutex network_mutex_;
  mutable bool network_tried_ = false;
  mutable std::unique_ptr<SharedNamespaces> namespaces_;
  mutable std::string network_problem_;  // why there are no shared namespaces, if there are none
  mutable std::once_flag filter_built_;
  mutable util::Result<SocketFilter> filter_ = util::Result<SocketFilter>::failure("not built");
};

}  // namespace nib::sandbox
