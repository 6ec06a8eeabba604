#pragma once
// Keeping every process a tool starts within nib's reach, and ending them all.
//
// nib makes itself the subreaper of its descendants, so a command's background processes,
// even those that start their own session (setsid, daemons), become nib's children when their
// parents exit instead of escaping to init. Killing a tree first freezes it so that nothing
// escapes by forking, then SIGKILLs it and reaps the dead that became nib's children. Freezing
// is one pass over /proc after another, each stopping (SIGSTOP) every wanted process as soon as
// it is read, until a pass finds nothing new. A wanted process's whole process group is
// stopped with one kill(), which also reaches members forked a moment ago, so a fork bomb that
// stays in its group is frozen at once; one whose members each start a session of their own is
// frozen process by process, as fast as /proc can be read.
//
// Reaping never uses waitpid(-1), which would steal the exit status of a child another thread
// is waiting for: every child nib spawns on purpose is registered (spawn_registered) and
// reaped only by its owner; only unregistered zombie children (adopted orphans) are reaped
// here, by pid. Consequently all code in nib that starts processes must use spawn_registered.
//
// Thread-safe. Not async-signal-safe: signal handlers should set a flag and let normal code
// call kill_all_descendants.

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "process/orphan_adopters.hpp"
#include "process/proc_table.hpp"

namespace nib::process {

// Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER). Call once
// at start-up, before any process is spawned. False when the kernel refuses; processes that
// leave their parent's tree are then out of reach.
bool become_subreaper();

// Kills every process descended from this one, then reaps those that became unregistered
// children. For nib's exit (normal, SIGINT, SIGTERM): no process started by a tool outlives it.
// Registered children are killed but left to their owners to reap. A process that never
// spawned a child has no descendants: then nothing is scanned.
void kill_all_descendants();

// Kills one command's tree: the process group `leader` leads, every descendant of `leader`, and
// every child of this process whose environment holds the entry `tag` ("NAME=value"), with
// their descendants (this finds double-forked daemons that left `leader`'s subtree and were
// adopted). Reaps the dead that became unregistered children; `leader` itself is left to its
// owner.
void kill_process_tree(pid_t leader, std::string_view tag);

// kill_process_tree for a command whose shell `leader` has been reaped already (a background
// job whose shell exited and left processes running): its process group, whose number cannot
// be reused while a member lives, and the children of this process that carry `tag`, with
// their descendants; never the pid `leader` itself, which may since belong to another process.
void kill_command_remains(pid_t leader, std::string_view tag);

// A command of another nib, which has died: who may be killed on its behalf.
struct OrphanedCommand {
  pid_t leader = 0;  // its shell, the leader of its session and process group; 0 if unknown
  std::uint64_t leader_start_time = 0;  // ProcessInfo::start_time of the shell
  std::uint64_t not_before = 0;         // no process of it started earlier (boot_time_ticks)
  std::string tag;                      // "NAME=value" in the environment of its processes
};
// Kills what is left of `command`: its process group while the shell itself still runs (same
// pid and start time), and every process on the system that carries its tag and started no
// earlier than `not_before`, with their descendants. Never this process or its ancestors (a nib
// started from that command's shell carries the tag as well).
void kill_orphaned_command(const OrphanedCommand& command);

// True when a process of the command whose shell was `leader` may still be running after the
// shell has exited: its process group has a member, or one of `processes` (a fresh scan) that
// is a living child of this process or of an adopter carries `tag` (an adopted orphan of the
// command), or may (its environment cannot be read).
bool command_left_processes(pid_t leader, std::string_view tag,
                            const std::vector<ProcessInfo>& processes);

// Reaps zombie children that nobody registered (orphans adopted as subreaper), among
// `processes` (a recent scan). Never blocks.
void reap_adopted_zombies(const std::vector<ProcessInfo>& processes);
// The same, with a fresh scan.
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

}  // namespace nib::process
