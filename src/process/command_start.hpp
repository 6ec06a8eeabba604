#pragma once
// The steps every command nib runs goes through before and after its shell, whether a call
// waits for it (command_runner.hpp) or it runs as a background job (job.hpp): a fresh tag in
// its environment, its entry in the command registry written before the shell starts (so that
// nothing it starts runs unrecorded), the spawn (on the request's spawn thread when it names
// one), the shell added to the entry; and at the end, the entry closed and the orphans that
// ended meanwhile collected. Thread-safe: independent commands may start on several threads.

#include <chrono>
#include <string>

#include "process/command_registry.hpp"
#include "process/command_request.hpp"

namespace nib::process {

struct StartedCommand {
  SpawnedProcess process;  // the shell: reap it with reap_registered
  std::string tag;         // the value of kCommandTagVariable in all its processes
  CommandEntryId entry = 0;
  // "NIB_COMMAND_ID=<tag>", as kill_process_tree and command_left_processes want it.
  std::string tag_entry() const;
};

// Starts request.command under /bin/bash -c as described above; a failure says why it could
// not start (and leaves no entry).
util::Result<StartedCommand> start_command(const CommandRequest& request);

// The shell has been reaped (or given up on). With `tree_gone` nothing of the command runs any
// more and its entry goes; otherwise the entry stays until a later settle finds nothing of it.
// Then collects adopted orphans that have ended and settles other ended commands.
void finish_command(const StartedCommand& command, bool tree_gone);

}  // namespace nib::process
