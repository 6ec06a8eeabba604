#pragma once
// Which processes take in the orphans of nib's commands: nib itself (a subreaper, see
// process_reaper.hpp) and the processes registered here. A process whose parent is one of them
// and that carries a command's tag belongs to that command, for the reaper's checks and the tree
// freezer's kills alike. Thread-safe.

#include <sys/types.h>

namespace nib::process {

// Another process that adopts the orphans of nib's commands the way nib does as their
// subreaper: the init of the pid namespace the sandboxed commands share
// (sandbox/shared_namespaces.hpp), to which orphans in that namespace go. Its children carrying a
// command's tag are that command's, for command_left_processes and kill_process_tree alike.
// Registered while it lives.
void add_adopter(pid_t pid);
void remove_adopter(pid_t pid);
// True for this process and the adopters.
bool adopts_orphans(pid_t pid);

}  // namespace nib::process
