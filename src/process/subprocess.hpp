#pragma once
// Starting a command the way an agent needs it: in a new session and process group (no
// controlling terminal, one group to kill), stdin from /dev/null (or a descriptor the caller
// gives, or a pipe for a program nib talks to: an MCP server), stdout and stderr each on its
// own pipe, every other descriptor closed, signal mask and dispositions reset, in a given
// directory and environment, and killed (SIGKILL) when the thread that started it ends.
//
// The last part is why this is not posix_spawn: posix_spawn cannot set a parent-death signal
// (PR_SET_PDEATHSIG), the only thing that ends a command the moment nib dies (kill -9, a crash)
// rather than when the next nib starts (command_registry.hpp). So the child is started the way
// glibc's posix_spawn starts it: clone(CLONE_VM | CLONE_VFORK) onto a stack of its own, which
// is safe in a multi-threaded process (fork-then-run-code is not), the child making only raw
// system calls until execve, with every signal blocked until its dispositions are defaults.
//
// What callers must respect: the kernel sends the parent-death signal when the *thread* that
// spawned the process exits, not the process. A tool's worker thread lives as long as its
// command, so a command dies with nib and never before its call ends. A process meant to
// outlive the call that started it (a background job) must be spawned from a thread that lives
// as long as the job, or with die_with_spawning_thread = false and rely on the registry alone.
// Only the spawned process itself gets the signal (it survives execve but not fork): its
// children are ended by the process reaper or, after a crash, by the next nib's sweep.
// Thread-safe: spawn_process may be called from several threads at once.

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "process/unique_fd.hpp"
#include "util/result.hpp"

namespace nib::process {

using EnvironmentOverrides = std::vector<std::pair<std::string, std::string>>;

// Variables that make a command's tools behave without a person at a terminal (see the
// definition for the reason of each). The caller's own marker (NIB=1) is among them.
const EnvironmentOverrides& non_interactive_environment();

// `base` ("NAME=value" entries, null-terminated like environ) without the variables named in
// `withheld`, with `overrides` replacing entries of the same name or added at the end.
std::vector<std::string> merge_environment(const char* const* base,
                                           const EnvironmentOverrides& overrides,
                                           const std::vector<std::string>& withheld = {});

struct SpawnRequest {
  std::vector<std::string> argv;  // argv[0] is the program's absolute path
  std::filesystem::path cwd;
  std::vector<std::string> environment;  // complete, "NAME=value" entries
  bool open_pidfd = true;  // false behaves like a kernel without pidfds (tests the fallback)
  // SIGKILL the process when the spawning thread ends (see above); false for a process that
  // must outlive that thread.
  bool die_with_spawning_thread = true;
  // stderr goes into the stdout pipe, so both arrive in the order they were written (a
  // background job's log); SpawnedProcess::stderr_fd is then invalid.
  bool merge_stderr = false;
  // Confinement applied in the child just before execve, for a launcher (command_launcher.hpp):
  // namespaces to join (setns, in this order: a user namespace before the namespaces it owns)
  // and a Landlock ruleset to restrict the child with (after no_new_privs). The descriptors
  // stay the caller's; -1 / empty: none.
  std::vector<int> namespaces_to_enter;
  int landlock_ruleset = -1;
  // A seccomp filter the child installs after no_new_privs (the Landlock path's socket filter,
  // sandbox/socket_filter.hpp): a `struct sock_fprog` the caller keeps alive; null: none.
  const void* seccomp_program = nullptr;
  // Descriptors the program gets as 3, 4, ... in this order (bubblewrap's --userns, --pidns and
  // --seccomp read them by number); the caller keeps them open until the spawn returns.
  std::vector<int> passed_fds;
  // The child's stdin: an open descriptor it reads (a hook's input in a memfd), or -1 for
  // /dev/null. The caller keeps it and closes it after the spawn.
  int stdin_fd = -1;
  // stdin is a pipe whose write end the caller gets (SpawnedProcess::stdin_fd), instead of
  // /dev/null: for a program that reads requests, not for commands.
  bool pipe_stdin = false;
};

struct SpawnedProcess {
  pid_t pid = -1;      // also the id of its session and process group
  UniqueFd stdout_fd;  // read ends of the pipes, non-blocking and close-on-exec
  UniqueFd stderr_fd;  // invalid with merge_stderr
  UniqueFd stdin_fd;   // write end (blocking, close-on-exec) when pipe_stdin; invalid otherwise
  UniqueFd pidfd;      // readable once the process exits; invalid when the kernel lacks pidfds
  // Where a launcher's helper writes how the shell really ended ("exit N" or "signal N"), when
  // what stands between nib and the shell hides it (bubblewrap reports a death by signal N as
  // the exit status 128+N); invalid otherwise. See reported_wait_status().
  UniqueFd exit_report;
};

// The shell's wait status: `status` as reaped, or what the helper reported through
// `process.exit_report` when it did (a death by a signal then reads as one).
int reported_wait_status(const SpawnedProcess& process, int status);

// Starts the process, registered with the process reaper (spawn_registered): the caller must
// reap it with reap_registered or hand it over with release_registered. A failure says why it
// could not be started.
util::Result<SpawnedProcess> spawn_process(const SpawnRequest& request);

}  // namespace nib::process
