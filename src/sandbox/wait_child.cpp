#include "sandbox/wait_child.hpp"

#include <sys/wait.h>

#include "process/process_reaper.hpp"

namespace nib::sandbox {

int wait_registered_child(pid_t pid) {
  int status = 0;
  while (process::reap_registered(pid, &status) == process::ReapStatus::kRunning) {
    // Blocks until it has exited, leaving it to reap_registered to collect.
    siginfo_t info{};
    ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT);
  }
  return status;
}

}  // namespace nib::sandbox
