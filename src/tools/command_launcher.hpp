#pragma once
// The seam between the command runner and whatever confines a command (src/sandbox): a launcher
// turns the plain SpawnRequest for `/bin/bash -c CMD` into the confined one, or says why the
// command cannot run confined. The runner keeps everything else (pipes, exit status, timeouts,
// kill-on-abort, the registry tag, the parent-death signal) as it is, so tools never know how a
// command is confined, and the same tests run with and without a launcher.
// Thread-safe: implementations must allow launch() from several threads at once.

#include <memory>
#include <string_view>

#include "tools/subprocess.hpp"
#include "util/result.hpp"

namespace nib::tools {

// How one command asks to be confined (bash's "network": true).
struct LaunchMode {
  bool network = false;  // confined, but with the host's network instead of the private one
};

// A confined request and what must stay alive until it has started (descriptors the child uses
// before execve, such as a Landlock ruleset): the runner drops `lease` when run_command returns.
// What must outlive background processes of the command belongs to the launcher itself.
struct Launch {
  SpawnRequest request;
  std::shared_ptr<void> lease;
};

class CommandLauncher {
 public:
  virtual ~CommandLauncher() = default;
  // The confined version of `request`, or why the command cannot run confined (a line that
  // names the cause and the fix; the command then does not run).
  virtual util::Result<Launch> launch(SpawnRequest request, LaunchMode mode) const = 0;
  // True when settings say `command` always runs outside (the sandbox's excludedCommands).
  virtual bool runs_outside(std::string_view command) const = 0;
  // One line for the model and the user: what confines commands and what it allows.
  virtual std::string describe() const = 0;
};

}  // namespace nib::tools
