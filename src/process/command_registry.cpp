// This nib's own entries in the command registry: recording each command, and removing its
// entry once nothing of it runs. The sweep of dead nibs' entries is in command_sweep.cpp.

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "process/command_registry.hpp"
#include "process/command_registry_store.hpp"
#include "process/process_reaper.hpp"
#include "util/user_places.hpp"

namespace nib::process {
namespace {

namespace fs = std::filesystem;
using registry::EntryKind;
using registry::EntryName;

struct OwnEntry {
  CommandEntryId id = 0;
  fs::path directory;
  std::string file_name;
  CommandRecord record;
  bool ended = false;  // the shell has exited; processes it left may still run
};

// The state of this nib's entries; every member is guarded by `mutex`.
struct OwnEntries {
  std::mutex mutex;
  std::string label;
  std::uint64_t next_number = 1;
  std::vector<OwnEntry> entries;
  // The registration directory, kept open while the environment names the same one.
  fs::path open_path;
  UniqueFd open_fd;

  static OwnEntries& instance() {
    static OwnEntries entries;
    return entries;
  }

  int directory_fd(const fs::path& path) {
    if (!open_fd.valid() || open_path != path) {
      open_fd = registry::open_registry_dir(path, /*create=*/true);
      open_path = path;
    }
    return open_fd.get();
  }

  // (Re)writes the file of `entry`.
  bool write(const OwnEntry& entry) {
    const int dir_fd = directory_fd(entry.directory);
    if (dir_fd < 0) return false;
    const registry::NibIdentity& nib = registry::this_nib();
    const std::string temporary_name =
        registry::entry_file_name({nib.pid, nib.start_time, entry.id, EntryKind::kTemporary});
    return registry::write_entry_file(dir_fd, entry.file_name, temporary_name,
                                      registry::encode_entry({nib, entry.record, label}));
  }

  OwnEntry* find(CommandEntryId id) {
    const auto found = std::find_if(entries.begin(), entries.end(),
                                    [id](const OwnEntry& entry) { return entry.id == id; });
    return found == entries.end() ? nullptr : &*found;
  }

  // Removes the file of the entry at `index` and forgets the entry.
  void remove(std::size_t index) {
    const OwnEntry& entry = entries[index];
    if (open_fd.valid() && entry.directory == open_path) {
      ::unlinkat(open_fd.get(), entry.file_name.c_str(), 0);
    } else if (const UniqueFd dir = registry::open_registry_dir(entry.directory, false);
               dir.valid()) {
      ::unlinkat(dir.get(), entry.file_name.c_str(), 0);
    }
    entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(index));
  }
};

std::string tag_entry(const std::string& tag) {
  return std::string(kCommandTagVariable) + "=" + tag;
}

}  // namespace

std::string new_command_tag() {
  static std::atomic<unsigned long> counter{0};
  const registry::NibIdentity& nib = registry::this_nib();
  return std::to_string(nib.pid) + "-" + std::to_string(nib.start_time) + "-" +
         std::to_string(counter.fetch_add(1) + 1);
}

void set_command_owner_label(std::string label) {
  OwnEntries& own = OwnEntries::instance();
  const std::lock_guard lock(own.mutex);
  own.label = std::move(label);
}

CommandEntryId register_command(const CommandRecord& record) {
  OwnEntries& own = OwnEntries::instance();
  const registry::NibIdentity& nib = registry::this_nib();
  const fs::path directory = registry_directories().registration;
  const std::lock_guard lock(own.mutex);
  const CommandEntryId id = own.next_number++;
  OwnEntry entry{id, directory,
                 registry::entry_file_name({nib.pid, nib.start_time, id, EntryKind::kCommand}),
                 record};
  if (!own.write(entry)) return 0;
  own.entries.push_back(std::move(entry));
  return id;
}

void command_started(CommandEntryId id, pid_t leader, std::uint64_t leader_start_time) {
  OwnEntries& own = OwnEntries::instance();
  const std::lock_guard lock(own.mutex);
  if (OwnEntry* entry = own.find(id)) {
    entry->record.leader = leader;
    entry->record.leader_start_time = leader_start_time;
    own.write(*entry);  // on failure the first version stays: the tag still finds the command
  }
}

void command_became_job(CommandEntryId id, int job_id) {
  OwnEntries& own = OwnEntries::instance();
  const std::lock_guard lock(own.mutex);
  if (OwnEntry* entry = own.find(id)) {
    entry->record.job_id = job_id;
    own.write(*entry);  // on failure the entry stays as it was: the command is still ended
  }
}

void command_ended(CommandEntryId id, bool tree_killed) {
  OwnEntries& own = OwnEntries::instance();
  const std::lock_guard lock(own.mutex);
  OwnEntry* entry = own.find(id);
  if (entry == nullptr) return;
  if (tree_killed) {
    own.remove(static_cast<std::size_t>(entry - own.entries.data()));
  } else {
    entry->ended = true;
  }
}

void settle_ended_commands(const std::vector<ProcessInfo>& processes) {
  OwnEntries& own = OwnEntries::instance();
  const std::lock_guard lock(own.mutex);
  for (std::size_t i = own.entries.size(); i-- > 0;) {
    const OwnEntry& entry = own.entries[i];
    if (entry.ended &&
        !command_left_processes(entry.record.leader, tag_entry(entry.record.tag), processes)) {
      own.remove(i);
    }
  }
}

void forget_all_commands() {
  OwnEntries& own = OwnEntries::instance();
  const std::lock_guard lock(own.mutex);
  while (!own.entries.empty()) own.remove(own.entries.size() - 1);
}

RegistryDirectories registry_directories() {
  const std::string uid = std::to_string(::geteuid());
  const fs::path temporary = fs::path("/tmp") / ("nib-" + uid) / "commands";
  const fs::path standard_runtime = fs::path("/run/user") / uid / "nib" / "commands";
  RegistryDirectories directories;
  const fs::path runtime = util::process_places().runtime_dir;
  directories.registration = runtime.empty() ? temporary : runtime / "nib" / "commands";
  directories.swept = {directories.registration};
  for (const fs::path& other : {temporary, standard_runtime}) {
    if (std::find(directories.swept.begin(), directories.swept.end(), other) ==
        directories.swept.end()) {
      directories.swept.push_back(other);
    }
  }
  return directories;
}

}  // namespace nib::process
