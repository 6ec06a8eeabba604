#pragma once
// The bubblewrap command line that confines one command: the root file system read-only, the
// writable paths bound writable over it, the protected paths' parents pinned and the protected
// paths bound read-only again (later binds win), a private /dev and /proc, new pid and IPC
// namespaces, a new session, and no capabilities. The network is the caller's choice: the
// shared namespace the spawned child joins before bubblewrap starts (no flag), one of its own
// (--unshare-net), or the host's.
//
// Not --die-with-parent, deliberately: with it, bubblewrap's init (pid 1 of the command's pid
// namespace) dies the moment the shell exits, taking `cmd &` with it, where outside the sandbox
// a background process runs on until nib exits (and a dev server started in one call must
// answer the next). Without it, the command's processes are nib's descendants like any
// command's: the spawned bubblewrap dies with nib's thread (parent-death signal), timeouts and
// aborts kill the whole tree, kill_all_descendants ends them at exit, and after a crash the next
// nib's registry sweep finds them by their tag, exactly as for background processes outside.
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
  // Bound writable over themselves after them, so that they cannot be renamed or removed
  // (protected_paths.hpp), in order.
  std::vector<std::filesystem::path> pinned;
  std::vector<std::filesystem::path> read_only;  // bound read-only after them
  NetworkChoice network = NetworkChoice::kPrivate;
};

// The namespace and privilege flags every confined command gets (the probe tries these).
std::vector<std::string> isolation_flags();

// bubblewrap's argv, running `command` (an argv) in `cwd`.
std::vector<std::string> bubblewrap_argv(const BubblewrapPlan& plan,
                                         const std::vector<std::string>& command,
                                         const std::filesystem::path& cwd);

}  // namespace nib::sandbox
