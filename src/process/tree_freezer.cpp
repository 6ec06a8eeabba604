#include "process/tree_freezer.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "process/orphan_adopters.hpp"

namespace nib::process {
namespace {

using namespace std::chrono_literals;

// Freezing repeats while each pass finds new members; a set that keeps growing after this many
// passes (a bomb outrunning the reads of /proc) is killed as far as it was found, and what it
// still forks is found by the next kill (nib's exit kills every descendant).
constexpr int kMaxFreezeRounds = 64;
// A process between execve and its new environment reads as empty for a moment; it is read
// again this many times, this long apart (a setuid program's environment stays unreadable, so
// the re-reads must end).
constexpr int kEnvironmentRereads = 5;
constexpr auto kEnvironmentRereadPause = 1ms;
// SIGKILLed processes die within microseconds unless stuck in the kernel (a dead NFS server);
// killing waits this long for them, then leaves the rest to a later reap.
constexpr auto kKillWaitCap = 1000ms;
constexpr auto kKillPollFirst = 1ms;
constexpr auto kKillPollMax = 16ms;

}  // namespace

TreeFreezer::TreeFreezer(KillScope scope)
    : scope_(std::move(scope)),
      self_(::getpid()),
      own_group_(::getpgrp()),
      own_session_(::getsid(0)) {}

int TreeFreezer::freeze() {
  if (scope_.group) stop_group(*scope_.group);
  int passes = 0;
  int rereads = 0;
  while (passes < kMaxFreezeRounds) {
    ++passes;
    if (freeze_pass()) continue;
    if (!unsettled_ || rereads++ == kEnvironmentRereads) break;
    std::this_thread::sleep_for(kEnvironmentRereadPause);
  }
  return passes;
}

bool TreeFreezer::freeze_pass() {
  bool found_new = false;
  unsettled_ = false;
  for_each_process([&](const ProcessInfo& info) {
    if (members_.contains(info.pid) || !wanted(info)) return;
    members_.insert(info.pid);
    ::kill(info.pid, SIGSTOP);
    stop_group(info.pgid);
    found_new = true;
  });
  return found_new;
}

bool TreeFreezer::wanted(const ProcessInfo& info) {
  if (has_exited(info) || info.pid == self_ || scope_.excluded.contains(info.pid)) {
    return false;
  }
  if (info.start_time < scope_.not_before) return false;
  const auto listed = [](const std::vector<pid_t>& pids, pid_t pid) {
    return std::find(pids.begin(), pids.end(), pid) != pids.end();
  };
  return listed(scope_.roots, info.pid) || listed(scope_.parents, info.ppid) ||
         members_.contains(info.ppid) || groups_.contains(info.pgid) || carries_tag(info);
}

bool TreeFreezer::carries_tag(const ProcessInfo& info) {
  if (scope_.tag.empty() || (!scope_.tag_anywhere && !adopts_orphans(info.ppid))) return false;
  const auto known = untagged_.find(info.pid);
  if (known != untagged_.end() && known->second == info.start_time) return false;
  switch (scope_.read_environment(info.pid, scope_.tag)) {
    case EnvironmentEntry::kPresent:
      return true;
    case EnvironmentEntry::kAbsent:
      untagged_[info.pid] = info.start_time;
      return false;
    case EnvironmentEntry::kUnknown:
      unsettled_ = true;  // read again next pass: it may be between execve and its new environment
      break;
  }
  return false;
}

void TreeFreezer::stop_group(pid_t group) {
  // nib's own group and session hold nib and the terminal's job: never signalled. A command's
  // groups lie in sessions its shell started, so they hold nothing but the command's processes.
  if (group <= 0 || group == own_group_ || group == own_session_) return;
  if (groups_.insert(group).second) ::kill(-group, SIGSTOP);
}

void TreeFreezer::kill() {
  for (const pid_t group : groups_) ::kill(-group, SIGKILL);
  for (const pid_t pid : members_) ::kill(pid, SIGKILL);
  std::vector<pid_t> alive(members_.begin(), members_.end());
  const auto deadline = std::chrono::steady_clock::now() + kKillWaitCap;
  auto pause = std::chrono::duration_cast<std::chrono::milliseconds>(kKillPollFirst);
  while (true) {
    std::erase_if(alive, [](pid_t pid) {
      const auto info = read_process(pid);
      return !info || has_exited(*info);
    });
    if (alive.empty() || std::chrono::steady_clock::now() >= deadline) return;
    std::this_thread::sleep_for(pause);
    pause =
        std::min(pause * 2, std::chrono::duration_cast<std::chrono::milliseconds>(kKillPollMax));
  }
}

}  // namespace nib::process
