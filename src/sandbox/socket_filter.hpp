#pragma once
// The seccomp filter every sandboxed command runs under: it cannot make a unix socket
// (socket(AF_UNIX, ...) fails with EACCES), so it cannot reach the host's sockets by path —
// tmux's (whose `run-shell` runs anything on the host), the D-Bus session bus, an ssh or gpg
// agent, a container engine's — none of which a read-only bind keeps from a connect(). A
// socketpair stays possible (it reaches nothing), and io_uring, whose operations seccomp cannot
// see, is refused (ENOSYS) so that it cannot make the socket instead.
//
// Why a filter rather than private /tmp and runtime directories: the sockets live in many
// places (/tmp/tmux-UID, $XDG_RUNTIME_DIR, /run, an ssh agent's temporary directory, wherever a
// program put its own), and commands share /tmp with the user's tools on purpose (a log written
// there is read back with `read`), so hiding places would be incomplete and break work, where
// refusing the socket call is complete. The settings may name sockets commands need (a
// database's); then the filter is off, and what it protected is hidden instead
// (command_sandbox.hpp).
//
// 32-bit x86 programs get the same rule on their own system calls; calls of any other
// architecture end the process (libseccomp's default), so no other way around the filter is
// left open. Thread-safe: a built filter is read-only.

#include <linux/filter.h>

#include <vector>

#include "process/unique_fd.hpp"
#include "util/result.hpp"

namespace nib::sandbox {

class SocketFilter {
 public:
  // Compiles the filter for this machine's architecture; a failure says why.
  static util::Result<SocketFilter> build();

  // The program for the kernel (prctl PR_SET_SECCOMP); it points into this object.
  sock_fprog program() const;
  // The program in a new descriptor, read from its start: bubblewrap's --seccomp reads it.
  util::Result<process::UniqueFd> program_descriptor() const;

 private:
  SocketFilter() = default;

  std::vector<sock_filter> instructions_;
};

}  // namespace nib::sandbox
