#pragma once
// The bubblewrap command line that confines one command: the root file system read-only, the
// writable paths bound writable over it, the protected paths' parents pinned and the protected
// paths bound read-only again (later binds win), the hidden places covered, a private /dev and
// /proc, a new IPC namespace, a new session, no capabilities, and the socket filter
// (socket_filter.hpp) unless the settings lift it. The pid namespace is the one all of nib's
// commands share (shared_namespaces.hpp: --userns and --pidns name it by descriptor) or, when
// it could not be made, one of the command's own. The network is the caller's choice: the
// shared namespace the spawned child joins before bubblewrap starts (no flag), one of its own
// (--unshare-net), or the host's.
//
// Not --die-with-parent, deliberately: with it, the command's processes die the moment the
// shell exits, taking `cmd &` with it, where outside the sandbox a background process runs on
// until nib exits (and a dev server started in one call must answer the next). Instead they die
// with the shared pid namespace's init, which ends with nib however nib ends; timeouts and
// aborts kill the whole tree, exactly as for background processes outside.
// Pure.

#include <filesystem>
#include <string>
#include <vector>

namespace nib::sandbox {

enum class NetworkChoice {
  kJoined,   // the spawned child has joined the shared namespace already
  kPrivate,  // a namespace of the command's own: loopback only, not shared
  kHost,     // the host's network
};

struct BubblewrapPlan {
  std::filesystem::path bubblewrap;
  std::vector<std::filesystem::path> writable;  // bound writable, in order
  // Bound read-only after them when not empty (the home directory in a temp directory), and
  // the writable paths inside it bound writable again.
  std::filesystem::path read_only_home;
  // Bound writable over themselves after them, so that they cannot be renamed or removed
  // (protected_paths.hpp), in order.
  std::vector<std::filesystem::path> pinned;
  std::vector<std::filesystem::path> read_only;  // bound read-only after them
  // Hidden after them: an empty read-only directory over each of these directories, an empty
  // file over each of these files (the secret places no rule opens).
  std::vector<std::filesystem::path> hidden_directories;
  std::vector<std::filesystem::path> hidden_files;
  NetworkChoice network = NetworkChoice::kPrivate;
  // The descriptor numbers the command's bubblewrap has them at (SpawnRequest::passed_fds), -1
  // for none: the user namespace to set the sandbox up in, the shared pid namespace (none: a
  // pid namespace of the command's own), and the socket filter.
  int user_namespace_fd = -1;
  int pid_namespace_fd = -1;
  int seccomp_fd = -1;
};

// The namespace and privilege flags every confined command gets, with a pid namespace of its
// own (the probe tries these).
std::vector<std::string> isolation_flags();

// bubblewrap's argv, running `command` (an argv) in `cwd`.
std::vector<std::string> bubblewrap_argv(const BubblewrapPlan& plan,
                                         const std::vector<std::string>& command,
                                         const std::filesystem::path& cwd);

}  // namespace nib::sandbox
