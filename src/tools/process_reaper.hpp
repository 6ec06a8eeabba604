#pragma once
// Keeping every process a tool starts within nib's reach, and ending them all.
//
// nib makes itself the subreaper of its descendants, so a command's background processes,
// even those that start their own session (setsid, daemons), become nib's children when their
// parents exit instead of escaping to init. Killing a tree first freezes it (SIGSTOP, repeated
// until a scan of /proc finds nothing new) so that nothing escapes by forking, then SIGKILLs
// it and reaps the dead that became nib's children.
//
// Reaping never uses waitpid(-1), which would steal the exit status of a child another thread
// is waiting for: every child nib spawns on purpose is registered (spawn_registered) and
// reaped only by its owner; only unregistered zombie children (adopted orphans) are reaped
// here, by pid. Consequently all code in nib that starts processes must use spawn_registered.
//
// Thread-safe. Not async-signal-safe: signal handlers should set a flag and let normal code
// call kill_all_descendants.

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace nib::tools {

// Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER). Call once
// at start-up, before any process is spawned. False when the kernel refuses; processes that
// leave their parent's tree are then out of reach.
bool become_subreaper();

// Kills every process descended from this one, then reaps those that became unregistered
// children. For nib's exit (normal, SIGINT, SIGTERM): no process started by a tool outlives it.
// Registered children are killed but left to their owners to reap.
void kill_all_descendants();

// Kills one command's tree: the process group `leader` leads, every descendant of `leader`, and
// every descendant of this process whose environment holds the entry `tag` ("NAME=value"),
// with their descendants (this finds double-forked daemons that left `leader`'s subtree).
// Reaps the dead that became unregistered children; `leader` itself is left to its owner.
void kill_process_tree(pid_t leader, std::string_view tag);

// Reaps zombie children that nobody registered (orphans adopted as subreaper). Never blocks.
void reap_adopted_zombies();

// Runs `spawn`, which starts a child and returns its pid (or -1), and registers the child
// before any reaper can see it; returns what `spawn` returned.
pid_t spawn_registered(const std::function<pid_t()>& spawn);

enum class ReapStatus {
  kRunning,  // not exited yet
  kReaped,   // exited; its wait status was stored and it is no longer registered
  kLost,     // not a child any more (reaped elsewhere); no longer registered
};
// Reaps the registered child `pid` if it has exited, without blocking.
ReapStatus reap_registered(pid_t pid, int* wait_status);

// Gives up ownership of the registered child `pid`: reap_adopted_zombies will collect it.
void release_registered(pid_t pid);

// One process as /proc/<pid>/stat shows it.
struct ProcessInfo {
  pid_t pid = 0;
  pid_t ppid = 0;
  pid_t pgid = 0;
  char state = '?';  // R, S, D, T, Z, ...; 'Z' and 'X' are dead
};

// Parses the text of /proc/<pid>/stat; nullopt when it is malformed. The command name may hold
// spaces and parentheses, so the fields are found after its last ')'.
std::optional<ProcessInfo> parse_proc_stat(std::string_view stat_text);

// Every process on the system (those that vanish during the scan are skipped).
std::vector<ProcessInfo> scan_processes();

// The pids of every process below `roots` in the parent tree of `processes`, roots excluded.
std::vector<pid_t> collect_descendants(const std::vector<ProcessInfo>& processes,
                                       const std::vector<pid_t>& roots);

}  // namespace nib::tools
