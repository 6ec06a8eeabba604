#pragma once
// Reading the process table from /proc: one process's stat line, every process on the system,
// the descendants of some roots, and whether a process's environment holds an entry. Processes
// that vanish while they are read are skipped. Thread-safe: no shared state.

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace nib::process {

// One process as /proc/<pid>/stat shows it.
struct ProcessInfo {
  pid_t pid = 0;
  pid_t ppid = 0;
  pid_t pgid = 0;
  pid_t sid = 0;
  char state = '?';  // R, S, D, T (stopped), t (traced), Z, X, ...; 'Z' and 'X' are dead
  // When it started, in clock ticks since boot (field 22): with the pid, it names one process
  // for good, since a pid is reused only by a process that starts later.
  std::uint64_t start_time = 0;
  // Its first thread has begun to exit (PF_EXITING in the flags, field 9): /proc may still
  // show it running for a moment (a pid namespace's init waiting for its namespace to empty,
  // say), but it runs no code of its own again and its environment can no longer be read.
  bool exiting = false;
  int threads = 1;  // field 20
};

// Now, in the clock of ProcessInfo::start_time (clock ticks since boot, rounded down): a
// process that starts later has a start time no smaller than this.
std::uint64_t boot_time_ticks();

// True for a process that has exited: a zombie, or one being removed. (A first thread that
// exited while others run shows the zombie's state, yet the process goes on.)
bool has_exited(const ProcessInfo& info);

// True for a process that has exited or is exiting: it runs no code of its own again. An
// exiting one may still hold its descriptors for a moment, and a pid namespace's init the
// processes of its namespace, so waiting for an end is waiting for has_exited.
bool runs_no_more(const ProcessInfo& info);

// Parses the text of /proc/<pid>/stat; nullopt when it is malformed. The command name may hold
// spaces and parentheses, so the fields are found after its last ')'.
std::optional<ProcessInfo> parse_proc_stat(std::string_view stat_text);

// The process `pid` as /proc shows it now; nullopt when there is none.
std::optional<ProcessInfo> read_process(pid_t pid);

// Calls `visit` for every process on the system, as each is read: a caller that signals what
// it sees acts on the first processes before the last ones are read.
void for_each_process(const std::function<void(const ProcessInfo&)>& visit);

// Every process on the system.
std::vector<ProcessInfo> scan_processes();

// The pids of every process below `roots` in the parent tree of `processes`, roots excluded.
std::vector<pid_t> collect_descendants(const std::vector<ProcessInfo>& processes,
                                       const std::vector<pid_t>& roots);

// Whether the environment `pid` started with holds `entry` ("NAME=value") exactly.
enum class EnvironmentEntry {
  kPresent,
  kAbsent,
  // Cannot be told: another user's process, one that has exited, or one in the middle of
  // execve, whose new environment is not in place yet (it reads as empty for a moment).
  kUnknown,
};
EnvironmentEntry find_environment_entry(pid_t pid, std::string_view entry);
// find_environment_entry(pid, entry) == kPresent.
bool environment_has(pid_t pid, std::string_view entry);

}  // namespace nib::process
