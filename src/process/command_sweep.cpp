// Ending the commands of nibs that died, and handing the notices of what was ended to the next
// run of their session (see command_registry.hpp).

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <tuple>

#include "process/command_registry.hpp"
#include "process/command_registry_store.hpp"
#include "process/process_reaper.hpp"

namespace nib::process {
namespace {

namespace fs = std::filesystem;
using registry::EntryKind;
using registry::EntryName;

struct ListedEntry {
  std::string file_name;
  EntryName name;
};

// The entries in the open directory `dir_fd`, in the order their owners started them.
std::vector<ListedEntry> list_entries(int dir_fd) {
  std::vector<ListedEntry> listed;
  DIR* dir = ::fdopendir(::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0));
  if (dir == nullptr) return listed;
  while (const dirent* entry = ::readdir(dir)) {
    if (const auto name = registry::parse_entry_name(entry->d_name)) {
      listed.push_back({entry->d_name, *name});
    }
  }
  ::closedir(dir);
  std::sort(listed.begin(), listed.end(), [](const ListedEntry& a, const ListedEntry& b) {
    return std::tie(a.name.owner_start_time, a.name.owner_pid, a.name.number) <
           std::tie(b.name.owner_start_time, b.name.owner_pid, b.name.number);
  });
  return listed;
}

// Whether the nib an entry names still runs, each owner looked up in /proc once.
class OwnerCheck {
 public:
  bool alive(const EntryName& name) {
    const auto key = std::make_pair(name.owner_pid, name.owner_start_time);
    const auto known = alive_.find(key);
    if (known != alive_.end()) return known->second;
    const auto info = read_process(name.owner_pid);
    const bool alive = info && info->start_time == name.owner_start_time && !has_exited(*info);
    alive_.emplace(key, alive);
    return alive;
  }

 private:
  std::map<std::pair<pid_t, std::uint64_t>, bool> alive_;
};

EndedCommand ended_command(const registry::StoredEntry& entry) {
  return {entry.label, entry.record.call_id, entry.record.command, entry.record.job_id};
}

// Ends the command of the dead nib that `file_name` records, and leaves a notice for its label.
void end_command(int dir_fd, const ListedEntry& listed, std::vector<EndedCommand>& ended) {
  const char* file = listed.file_name.c_str();
  const auto text = registry::read_entry_file(dir_fd, listed.file_name);
  if (!text) return;  // another nib's sweep took it meanwhile
  bool other_version = false;
  const auto entry = registry::decode_entry(*text, other_version);
  if (other_version) return;  // a newer nib's: left for one that reads it
  const registry::NibIdentity& self = registry::this_nib();
  if (!entry || entry->owner.boot_id != self.boot_id) {
    // Damaged, or from an earlier boot (nothing of that runs any more): nothing to end.
    ::unlinkat(dir_fd, file, 0);
    return;
  }
  // A nib of another pid namespace (a container): its pids mean other processes here.
  if (entry->owner.pid_namespace != self.pid_namespace) return;
  kill_orphaned_command({entry->record.leader, entry->record.leader_start_time,
                         entry->record.started_after,
                         std::string(kCommandTagVariable) + "=" + entry->record.tag});
  if (entry->label.empty()) {
    ::unlinkat(dir_fd, file, 0);
  } else {
    EntryName notice = listed.name;
    notice.kind = EntryKind::kEnded;
    const std::string notice_name = registry::entry_file_name(notice);
    if (::renameat(dir_fd, file, dir_fd, notice_name.c_str()) != 0) return;
    // The notice's age counts from now, not from the command's start.
    ::utimensat(dir_fd, notice_name.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
  }
  ended.push_back(ended_command(*entry));
}

bool expired(int dir_fd, const std::string& file_name) {
  struct stat info {};
  if (::fstatat(dir_fd, file_name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return false;
  const auto written = std::chrono::system_clock::from_time_t(info.st_mtime);
  return std::chrono::system_clock::now() - written > kEndedNoticeLifetime;
}

}  // namespace

std::vector<EndedCommand> end_commands_of_dead_nibs(const RegistryDirectories& directories) {
  std::vector<EndedCommand> ended;
  OwnerCheck owners;
  for (const fs::path& directory : directories.swept) {
    const UniqueFd dir = registry::open_registry_dir(directory, /*create=*/false);
    if (!dir.valid()) continue;
    for (const ListedEntry& listed : list_entries(dir.get())) {
      switch (listed.name.kind) {
        case EntryKind::kEnded:
          if (expired(dir.get(), listed.file_name)) {
            ::unlinkat(dir.get(), listed.file_name.c_str(), 0);
          }
          break;
        case EntryKind::kTemporary:
          if (!owners.alive(listed.name)) ::unlinkat(dir.get(), listed.file_name.c_str(), 0);
          break;
        case EntryKind::kCommand:
          if (!owners.alive(listed.name)) end_command(dir.get(), listed, ended);
          break;
      }
    }
  }
  return ended;
}

std::vector<EndedCommand> take_ended_commands(const std::string& label,
                                              const RegistryDirectories& directories) {
  std::vector<EndedCommand> taken;
  if (label.empty()) return taken;
  for (const fs::path& directory : directories.swept) {
    const UniqueFd dir = registry::open_registry_dir(directory, /*create=*/false);
    if (!dir.valid()) continue;
    for (const ListedEntry& listed : list_entries(dir.get())) {
      if (listed.name.kind != EntryKind::kEnded) continue;
      const auto text = registry::read_entry_file(dir.get(), listed.file_name);
      bool other_version = false;
      const auto entry = text ? registry::decode_entry(*text, other_version) : std::nullopt;
      if (!entry || entry->label != label) continue;
      // Taken by whoever removes it: two runs of one session never both report it.
      if (::unlinkat(dir.get(), listed.file_name.c_str(), 0) == 0) {
        taken.push_back(ended_command(*entry));
      }
    }
  }
  return taken;
}

}  // namespace nib::process
