#pragma once
// Blocking wait for a child registered with the process reaper (tools/process_reaper.hpp), for
// the sandbox's short-lived helpers (the probe, the network namespace's holder at shutdown).
// Thread-safe.

#include <sys/types.h>

namespace nib::sandbox {

// Waits until the registered child `pid` has exited and returns its wait status (0 when it was
// reaped elsewhere).
int wait_registered_child(pid_t pid);

}  // namespace nib::sandbox
