#pragma once
// The per-user record of the commands nib runs, so that a nib that dies without cleaning up
// (kill -9, a crash, a closed terminal's SIGKILL) leaves nothing running: every nib that
// starts ends the commands of nib processes that no longer exist. A subreaper cannot do this,
// since it dies with nib; the parent-death signal (subprocess.hpp) ends only the shell.
//
// Where: $XDG_RUNTIME_DIR/nib/commands, else /tmp/nib-<uid>/commands; each level a real
// directory of this user's with mode 0700, checked before it is trusted. Sweeping also looks
// in the other of the two (and /run/user/<uid>/nib/commands), so nibs started with and without
// XDG_RUNTIME_DIR clean up after each other.
//
// What: one small file per command, "<owner pid>-<owner start time>-<n>.cmd", written
// atomically (a temporary file renamed into place), holding the owner nib (pid and start time,
// boot id, pid namespace), the time before the command's shell started, the shell (its pid,
// which is also its session and process group, and its start time), its tag (the
// NIB_COMMAND_ID value every process of the command inherits), the owner's label (the
// session, see set_command_owner_label), the tool call id and the command's first bytes. An
// entry is written before the shell starts and again once it has, and lives until the command
// has ended and left nothing running (background processes count: they run until nib exits),
// or until nib exits. A background job (a command that outlives its call) is an entry like any
// other: it stays until the job ends, and a crash ends the job at the next start.
//
// Sweeping (end_commands_of_dead_nibs): an entry whose owner is gone (no such pid, another
// start time, or a zombie) is ended with kill_orphaned_command (process_reaper.hpp: the group
// only while the shell itself is alive, tagged processes only if they started after the entry
// was written, so a reused pid is never touched). A labelled entry then becomes
// "<...>.ended", a notice take_ended_commands hands to the next run of that label (nib -c), so
// the model learns its commands are gone; notices older than kEndedNoticeLifetime are removed.
// Cost when nothing is stale: one readdir per directory and one /proc read per live owner.
//
// A failure to record (no usable directory) never stops a command: it only loses this safety
// net. Thread-safe.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "process/command_record.hpp"
#include "process/proc_table.hpp"

namespace nib::process {

// The environment variable that carries a command's tag into all of its processes.
inline constexpr const char* kCommandTagVariable = "NIB_COMMAND_ID";
// A notice of ended commands that no run has taken after this long is removed: by then the
// session is most likely finished with.
inline constexpr std::chrono::hours kEndedNoticeLifetime{7 * 24};

// A new tag value: this process's pid and start time, then a counter, so no other nib on the
// machine, now or later, makes the same one.
std::string new_command_tag();

// The label given to the commands registered from now on (the run's session id), which a
// later run of the same session asks for; empty for none (no notice is kept).
void set_command_owner_label(std::string label);

// Records a command of this nib, before its shell is started (so that nothing it starts can
// run unrecorded); returns its entry, 0 when it could not be recorded.
using CommandEntryId = std::uint64_t;
CommandEntryId register_command(const CommandRecord& record);

// Adds the command's shell, once started, to its entry.
void command_started(CommandEntryId id, pid_t leader, std::uint64_t leader_start_time);

// The command, started as one a call waits for, has been moved into the background as job
// `job_id` (Ctrl+B): its entry says so from now on, so that a crash's notice names the job.
void command_became_job(CommandEntryId id, int job_id);

// The command's shell has ended (or never started). With `tree_killed` its processes were all
// killed and the entry goes; otherwise it stays until settle_ended_commands finds nothing of it
// running.
void command_ended(CommandEntryId id, bool tree_killed);

// Removes the entries of ended commands of which nothing runs any more, judged by
// command_left_processes (process_reaper.hpp) on `processes`, a fresh scan.
void settle_ended_commands(const std::vector<ProcessInfo>& processes);

// Removes every entry of this nib: for its exit, once kill_all_descendants has run.
void forget_all_commands();

// Where the record is kept (see above): from the process's runtime directory
// (util/user_places.hpp), at each call.
struct RegistryDirectories {
  std::filesystem::path registration;        // where this nib records its commands
  std::vector<std::filesystem::path> swept;  // where sweeping looks, registration first
};
RegistryDirectories registry_directories();

// A command ended on behalf of a nib that had died.
struct EndedCommand {
  std::string label;
  std::string call_id;
  std::string command;
  int job_id = 0;  // the background job it was; 0 for a command a call waited for
};

// Ends the commands of every dead nib recorded in `directories.swept` (see above) and returns
// them. For start-up, before anything else runs.
std::vector<EndedCommand> end_commands_of_dead_nibs(
    const RegistryDirectories& directories = registry_directories());

// The notices of commands with `label` that were ended on behalf of a dead nib, oldest first;
// each is removed as it is taken. Empty for an empty label.
std::vector<EndedCommand> take_ended_commands(
    const std::string& label, const RegistryDirectories& directories = registry_directories());

}  // namespace nib::process
