#pragma once
// The seam between the command runner and whatever confines a command (src/sandbox): a launcher
// says how a command will run (confined, with the host's network, or outside and why), which
// the bash tool reports in its call's access for the permission policy to judge, and turns the
// plain SpawnRequest for `/bin/bash -c CMD` into the confined one. The runner keeps everything
// else (pipes, exit status, timeouts, kill-on-abort, the registry tag, the parent-death
// signal) as it is, so tools never know how a command is confined, and the same tests run with
// and without a launcher.
// Thread-safe: implementations must allow every call from several threads at once.

#include <memory>
#include <string>
#include <string_view>

#include "core/call_access.hpp"
#include "process/subprocess.hpp"
#include "util/result.hpp"

namespace nib::process {

// How one command asks to be run (bash's "network" and "unsandboxed").
struct LaunchMode {
  bool network = false;      // confined, but with the host's network instead of the private one
  bool unsandboxed = false;  // outside the sandbox, with the user's rights
};

// A confined request and what must stay alive until it has started (descriptors the child uses
// before execve, such as a Landlock ruleset): the runner drops `lease` when run_command returns.
// What must outlive background processes of the command belongs to the launcher itself.
struct Launch {
  SpawnRequest request;
  std::shared_ptr<void> lease;
  // Read end of the pipe the launcher's helper reports the shell's true end into
  // (SpawnedProcess::exit_report); invalid when the wait status tells it.
  UniqueFd exit_report;
};

class CommandLauncher {
 public:
  virtual ~CommandLauncher() = default;
  // How `command`, asked for with `mode`, will run. The bash tool runs it exactly so: through
  // launch() when confined, without the launcher otherwise.
  virtual core::Confinement confinement(std::string_view command, LaunchMode mode) const = 0;
  // Why nothing can confine commands here, and the fix (for kUnconfinedUnavailable); "" else.
  virtual std::string unavailable() const = 0;
  // The confined version of `request`, or why the command cannot run confined (a line that
  // names the cause and the fix; the command then does not run).
  virtual util::Result<Launch> launch(SpawnRequest request, LaunchMode mode) const = 0;
  // One line for the model and the user: what confines commands and what it allows.
  virtual std::string describe() const = 0;
};

}  // namespace nib::process
