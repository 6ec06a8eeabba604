#include "process/proc_table.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <ctime>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "process/unique_fd.hpp"

namespace nib::process {
namespace {

// Fields of /proc/<pid>/stat skipped between the flags (field 9) and the thread count (20):
// minflt through nice.
constexpr int kFieldsBetweenFlagsAndThreads = 10;
// The kernel's flag of a task that has begun to exit (include/linux/sched.h).
constexpr unsigned long kTaskExiting = 0x4;

// Reads a small /proc file whole into `text` (cleared first); false when it cannot be opened.
bool read_proc_file(const char* path, std::string& text) {
  text.clear();
  UniqueFd fd(::open(path, O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return false;
  char buffer[4096];
  while (true) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  return true;
}

std::string proc_path(pid_t pid, const char* file) {
  return "/proc/" + std::to_string(pid) + "/" + file;
}

// Reads the next space-separated number of `rest` into `field`.
template <typename Number>
bool parse_field(std::string_view& rest, Number& field) {
  if (rest.empty() || rest[0] != ' ') return false;
  rest.remove_prefix(1);
  const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), field);
  if (error != std::errc{}) return false;
  rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
  return true;
}

}  // namespace

std::uint64_t boot_time_ticks() {
  // /proc's start times count from boot, suspended time included: CLOCK_BOOTTIME.
  timespec now{};
  ::clock_gettime(CLOCK_BOOTTIME, &now);
  const auto ticks_per_second = static_cast<std::uint64_t>(::sysconf(_SC_CLK_TCK));
  const auto nanoseconds = static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000u +
                           static_cast<std::uint64_t>(now.tv_nsec);
  return nanoseconds / (1'000'000'000u / ticks_per_second);
}

bool has_exited(const ProcessInfo& info) {
  return (info.state == 'Z' || info.state == 'X') && info.threads <= 1;
}

bool runs_no_more(const ProcessInfo& info) {
  return has_exited(info) || (info.exiting && info.threads <= 1);
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
  // After the name: " S ppid pgrp session tty_nr ... starttime ..."
  std::string_view rest = text.substr(close + 1);
  if (rest.size() < 3 || rest[0] != ' ') return std::nullopt;
  info.state = rest[1];
  rest.remove_prefix(2);
  if (!parse_field(rest, info.ppid) || !parse_field(rest, info.pgid)) return std::nullopt;
  if (!parse_field(rest, info.sid)) return std::nullopt;
  // Skipped fields are read as signed numbers (tpgid may be -1, nice may be negative).
  const auto skip = [&rest](int fields) {
    for (int field = 0; field < fields; ++field) {
      long long skipped = 0;
      if (!parse_field(rest, skipped)) return false;
    }
    return true;
  };
  unsigned long flags = 0;
  if (!skip(2) || !parse_field(rest, flags)) return std::nullopt;  // after tty_nr and tpgid
  if (!skip(kFieldsBetweenFlagsAndThreads) || !parse_field(rest, info.threads)) {
    return std::nullopt;
  }
  if (!skip(1) || !parse_field(rest, info.start_time)) return std::nullopt;  // after itrealvalue
  info.exiting = (flags & kTaskExiting) != 0;
  return info;
}

std::optional<ProcessInfo> read_process(pid_t pid) {
  std::string text;
  if (!read_proc_file(proc_path(pid, "stat").c_str(), text)) return std::nullopt;
  return parse_proc_stat(text);
}

void for_each_process(const std::function<void(const ProcessInfo&)>& visit) {
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return;
  std::string path;
  std::string text;
  while (const dirent* entry = ::readdir(proc)) {
    pid_t pid = 0;
    const std::string_view name = entry->d_name;
    const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), pid);
    if (error != std::errc{} || end != name.data() + name.size()) continue;
    path.assign("/proc/").append(name).append("/stat");
    if (!read_proc_file(path.c_str(), text)) continue;
    if (const auto info = parse_proc_stat(text)) visit(*info);
  }
  ::closedir(proc);
}

std::vector<ProcessInfo> scan_processes() {
  std::vector<ProcessInfo> processes;
  for_each_process([&processes](const ProcessInfo& info) { processes.push_back(info); });
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

EnvironmentEntry find_environment_entry(pid_t pid, std::string_view entry) {
  std::string environ;
  if (!read_proc_file(proc_path(pid, "environ").c_str(), environ) || environ.empty()) {
    return EnvironmentEntry::kUnknown;
  }
  std::string_view rest = environ;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\0');
    if (rest.substr(0, end) == entry) return EnvironmentEntry::kPresent;
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return EnvironmentEntry::kAbsent;
}

bool environment_has(pid_t pid, std::string_view entry) {
  return find_environment_entry(pid, entry) == EnvironmentEntry::kPresent;
}

}  // namespace nib::process
