#include "process/process_reaper.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>
#include <unordered_set>

#include "process/tree_freezer.hpp"

namespace nib::process {
namespace {

// A set of pids, shared between threads under its mutex.
struct GuardedPids {
  std::mutex mutex;
  std::unordered_set<pid_t> pids;
};

// Children whose owners will reap them.
GuardedPids& registered() {
  static GuardedPids children;
  return children;
}

// Whether spawn_registered ever started a child. Every descendant comes from such a child
// (nib is a subreaper: orphans of commands come back to it), so until then there is nothing to
// kill and /proc, which holds every process of the machine, need not be read.
std::atomic<bool>& spawned_any() {
  static std::atomic<bool> spawned = false;
  return spawned;
}

void freeze_and_kill(KillScope scope) {
  TreeFreezer freezer(std::move(scope));
  freezer.freeze();
  freezer.kill();
  reap_adopted_zombies();
}

// This process and its ancestors up to init.
std::unordered_set<pid_t> self_and_ancestors() {
  std::unordered_set<pid_t> chain;
  pid_t pid = ::getpid();
  while (pid > 1 && chain.insert(pid).second) {
    const auto info = read_process(pid);
    if (!info) break;
    pid = info->ppid;
  }
  return chain;
}

}  // namespace

bool become_subreaper() {
  return ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
}

void kill_all_descendants() {
  if (!spawned_any().load()) return;
  freeze_and_kill({.parents = {::getpid()}});
}

void kill_process_tree(pid_t leader, std::string_view tag) {
  freeze_and_kill({.roots = {leader}, .group = leader, .tag = std::string(tag)});
}

void kill_command_remains(pid_t leader, std::string_view tag) {
  freeze_and_kill({.group = leader, .tag = std::string(tag)});
}

void kill_orphaned_command(const OrphanedCommand& command) {
  KillScope scope{.tag = command.tag,
                  .tag_anywhere = true,
                  .not_before = command.not_before,
                  .excluded = self_and_ancestors()};
  // The shell's pid and group are trusted only while the shell itself is there: once it has
  // exited, its number may belong to someone else's process.
  const auto shell = command.leader > 0 ? read_process(command.leader) : std::nullopt;
  if (shell && shell->start_time == command.leader_start_time && shell->pgid == shell->pid &&
      !has_exited(*shell) && !scope.excluded.contains(shell->pid)) {
    scope.roots = {command.leader};
    scope.group = command.leader;
  }
  freeze_and_kill(std::move(scope));
}

bool command_left_processes(pid_t leader, std::string_view tag,
                            const std::vector<ProcessInfo>& processes) {
  if (::kill(-leader, 0) == 0 || errno == EPERM) return true;
  for (const ProcessInfo& info : processes) {
    // An environment that cannot be read (a setuid program, a process in the middle of
    // execve) may hold the tag: the entry stays. One that is exiting cannot be read either,
    // but runs nothing more: the sandbox's pid-namespace init, which outlives the shell's
    // bubblewrap by a moment, ends the namespace's processes as it goes.
    if (adopts_orphans(info.ppid) && !runs_no_more(info) &&
        find_environment_entry(info.pid, tag) != EnvironmentEntry::kAbsent) {
      return true;
    }
  }
  return false;
}

void reap_adopted_zombies(const std::vector<ProcessInfo>& processes) {
  const pid_t self = ::getpid();
  // The scan may be stale, but a pid is checked against the registry under its lock: a child
  // registered since is skipped, and waitpid on one still running returns at once.
  std::lock_guard lock(registered().mutex);
  for (const ProcessInfo& info : processes) {
    if (info.ppid == self && info.state == 'Z' && !registered().pids.contains(info.pid)) {
      ::waitpid(info.pid, nullptr, WNOHANG);
    }
  }
}

void reap_adopted_zombies() {
  reap_adopted_zombies(scan_processes());
}

pid_t spawn_registered(const std::function<pid_t()>& spawn) {
  std::lock_guard lock(registered().mutex);
  // Set before the spawn: a kill_all_descendants racing with it must scan.
  spawned_any().store(true);
  const pid_t pid = spawn();
  if (pid > 0) registered().pids.insert(pid);
  return pid;
}

ReapStatus reap_registered(pid_t pid, int* wait_status) {
  std::lock_guard lock(registered().mutex);
  pid_t result;
  do {
    result = ::waitpid(pid, wait_status, WNOHANG);
  } while (result < 0 && errno == EINTR);
  if (result == 0) return ReapStatus::kRunning;
  registered().pids.erase(pid);
  return result == pid ? ReapStatus::kReaped : ReapStatus::kLost;
}

void release_registered(pid_t pid) {
  std::lock_guard lock(registered().mutex);
  registered().pids.erase(pid);
}

}  // namespace nib::process
