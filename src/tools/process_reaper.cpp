#include "tools/process_reaper.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "tools/unique_fd.hpp"

namespace nib::tools {
namespace {

using namespace std::chrono_literals;

// Freezing repeats while each /proc scan finds new members; a tree that keeps growing after
// this many rounds (a fork bomb outrunning the scans) is killed as far as it was found.
constexpr int kMaxFreezeRounds = 64;
// SIGKILLed processes die within microseconds unless stuck in the kernel (a dead NFS server);
// reaping waits this long for them, then leaves the rest to a later reap_adopted_zombies.
constexpr auto kKillWaitCap = 1000ms;
constexpr auto kKillPollFirst = 1ms;
constexpr auto kKillPollMax = 16ms;

std::mutex& registry_mutex() {
  static std::mutex mutex;
  return mutex;
}
// Children whose owners will reap them; guarded by registry_mutex().
std::unordered_set<pid_t>& registered_children() {
  static std::unordered_set<pid_t> children;
  return children;
}

bool is_dead_state(char state) {
  return state == 'Z' || state == 'X';
}

// Reads a small /proc file whole; empty when it cannot be read.
std::string read_proc_file(const std::string& path) {
  std::string text;
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return text;
  char buffer[4096];
  while (true) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  return text;
}

std::optional<ProcessInfo> read_process(pid_t pid) {
  return parse_proc_stat(read_proc_file("/proc/" + std::to_string(pid) + "/stat"));
}

bool environment_has(pid_t pid, std::string_view entry) {
  const std::string environ = read_proc_file("/proc/" + std::to_string(pid) + "/environ");
  std::string_view rest = environ;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\0');
    if (rest.substr(0, end) == entry) return true;
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return false;
}

// Waits (bounded) until none of `pids` is alive; the dead may remain as zombies.
void wait_until_dead(const std::unordered_set<pid_t>& pids) {
  std::vector<pid_t> alive(pids.begin(), pids.end());
  const auto deadline = std::chrono::steady_clock::now() + kKillWaitCap;
  auto pause = std::chrono::duration_cast<std::chrono::milliseconds>(kKillPollFirst);
  while (true) {
    std::erase_if(alive, [](pid_t pid) {
      const auto info = read_process(pid);
      return !info || is_dead_state(info->state);
    });
    if (alive.empty() || std::chrono::steady_clock::now() >= deadline) return;
    std::this_thread::sleep_for(pause);
    pause =
        std::min(pause * 2, std::chrono::duration_cast<std::chrono::milliseconds>(kKillPollMax));
  }
}

// Freezes, kills and reaps the processes `select` picks from each scan. `group`, when set, is
// a process group stopped and killed as a whole as well (one kill() reaches every member, even
// one forked a moment ago).
void kill_selected(const std::function<std::vector<pid_t>(const std::vector<ProcessInfo>&)>& select,
                   std::optional<pid_t> group) {
  if (group) ::kill(-*group, SIGSTOP);
  std::unordered_set<pid_t> stopped;
  for (int round = 0; round < kMaxFreezeRounds; ++round) {
    const std::vector<ProcessInfo> processes = scan_processes();
    bool found_new = false;
    for (const pid_t pid : select(processes)) {
      if (stopped.insert(pid).second) {
        ::kill(pid, SIGSTOP);
        found_new = true;
      }
    }
    if (!found_new) break;
  }
  if (group) ::kill(-*group, SIGKILL);
  for (const pid_t pid : stopped) ::kill(pid, SIGKILL);
  wait_until_dead(stopped);
  reap_adopted_zombies();
}

std::vector<pid_t> living(const std::vector<ProcessInfo>& processes, std::vector<pid_t> pids) {
  std::unordered_map<pid_t, char> states;
  for (const ProcessInfo& info : processes) states.emplace(info.pid, info.state);
  std::erase_if(pids, [&](pid_t pid) {
    const auto found = states.find(pid);
    return found == states.end() || is_dead_state(found->second);
  });
  return pids;
}

}  // namespace

bool become_subreaper() {
  return ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
}

void kill_all_descendants() {
  const pid_t self = ::getpid();
  kill_selected(
      [self](const std::vector<ProcessInfo>& processes) {
        return living(processes, collect_descendants(processes, {self}));
      },
      std::nullopt);
}

void kill_process_tree(pid_t leader, std::string_view tag) {
  const pid_t self = ::getpid();
  const std::string entry(tag);
  kill_selected(
      [self, leader, &entry](const std::vector<ProcessInfo>& processes) {
        std::vector<pid_t> roots{leader};
        if (!entry.empty()) {
          for (const pid_t pid : living(processes, collect_descendants(processes, {self}))) {
            if (pid != leader && environment_has(pid, entry)) roots.push_back(pid);
          }
        }
        std::vector<pid_t> targets = collect_descendants(processes, roots);
        targets.insert(targets.end(), roots.begin(), roots.end());
        return living(processes, std::move(targets));
      },
      leader);
}

void reap_adopted_zombies() {
  const pid_t self = ::getpid();
  std::lock_guard lock(registry_mutex());
  for (const ProcessInfo& info : scan_processes()) {
    if (info.ppid == self && info.state == 'Z' && !registered_children().contains(info.pid)) {
      ::waitpid(info.pid, nullptr, WNOHANG);
    }
  }
}

pid_t spawn_registered(const std::function<pid_t()>& spawn) {
  std::lock_guard lock(registry_mutex());
  const pid_t pid = spawn();
  if (pid > 0) registered_children().insert(pid);
  return pid;
}

ReapStatus reap_registered(pid_t pid, int* wait_status) {
  std::lock_guard lock(registry_mutex());
  pid_t result;
  do {
    result = ::waitpid(pid, wait_status, WNOHANG);
  } while (result < 0 && errno == EINTR);
  if (result == 0) return ReapStatus::kRunning;
  registered_children().erase(pid);
  return result == pid ? ReapStatus::kReaped : ReapStatus::kLost;
}

void release_registered(pid_t pid) {
  std::lock_guard lock(registry_mutex());
  registered_children().erase(pid);
}

std::optional<ProcessInfo> parse_proc_stat(std::string_view text) {
  const std::size_t open = text.find('(');
  const std::size_t close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return std::nullopt;
  }
  ProcessInfo info;
  const auto pid_end = text.data() + open;
  if (std::from_chars(text.data(), pid_end, info.pid).ec != std::errc{}) return std::nullopt;
  // After the name: " S ppid pgrp ..."
  std::string_view rest = text.substr(close + 1);
  if (rest.size() < 3 || rest[0] != ' ') return std::nullopt;
  info.state = rest[1];
  rest.remove_prefix(2);
  const auto parse_field = [&rest](pid_t& field) {
    if (rest.empty() || rest[0] != ' ') return false;
    rest.remove_prefix(1);
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), field);
    if (error != std::errc{}) return false;
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
    return true;
  };
  if (!parse_field(info.ppid) || !parse_field(info.pgid)) return std::nullopt;
  return info;
}

std::vector<ProcessInfo> scan_processes() {
  std::vector<ProcessInfo> processes;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return processes;
  while (const dirent* entry = ::readdir(proc)) {
    pid_t pid = 0;
    const std::string_view name = entry->d_name;
    const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), pid);
    if (error != std::errc{} || end != name.data() + name.size()) continue;
    if (auto info = read_process(pid)) processes.push_back(*info);
  }
  ::closedir(proc);
  return processes;
}

std::vector<pid_t> collect_descendants(const std::vector<ProcessInfo>& processes,
                                       const std::vector<pid_t>& roots) {
  std::unordered_multimap<pid_t, pid_t> children;
  for (const ProcessInfo& info : processes) children.emplace(info.ppid, info.pid);
  std::unordered_set<pid_t> seen(roots.begin(), roots.end());
  std::vector<pid_t> pending(roots.begin(), roots.end());
  std::vector<pid_t> found;
  while (!pending.empty()) {
    const pid_t parent = pending.back();
    pending.pop_back();
    const auto [first, last] = children.equal_range(parent);
    for (auto it = first; it != last; ++it) {
      if (seen.insert(it->second).second) {
        found.push_back(it->second);
        pending.push_back(it->second);
      }
    }
  }
  return found;
}

}  // namespace nib::tools
