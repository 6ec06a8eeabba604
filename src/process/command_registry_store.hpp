#pragma once
// The files behind command_registry.hpp: the directories, the entry names, the record each
// entry holds, and reading and writing them. Internal to the registry. Thread-safe: no shared
// state apart from this nib's identity, computed once.

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "process/command_record.hpp"
#include "process/proc_table.hpp"
#include "process/unique_fd.hpp"

namespace nib::process::registry {

// A nib process, named so that neither a reused pid nor another boot or pid namespace is taken
// for it.
struct NibIdentity {
  pid_t pid = 0;
  std::uint64_t start_time = 0;  // ProcessInfo::start_time
  std::string boot_id;           // /proc/sys/kernel/random/boot_id
  std::string pid_namespace;     // the link /proc/self/ns/pid: "pid:[4026531836]"
};
// This process.
const NibIdentity& this_nib();

enum class EntryKind {
  kCommand,    // ".cmd": a command of a nib that ran (or runs) it
  kTemporary,  // ".tmp": being written; left behind only by a nib that died meanwhile
  kEnded,      // ".ended": a notice of a command ended on behalf of a dead nib
};
struct EntryName {
  pid_t owner_pid = 0;
  std::uint64_t owner_start_time = 0;
  std::uint64_t number = 0;  // counts the owner's commands
  EntryKind kind = EntryKind::kCommand;
};
std::string entry_file_name(const EntryName& name);
// nullopt for a name that is not an entry's.
std::optional<EntryName> parse_entry_name(std::string_view file_name);

// What an entry file holds.
struct StoredEntry {
  NibIdentity owner;
  CommandRecord record;  // its command is cut to kRecordedCommandBytes
  std::string label;
};
std::string encode_entry(const StoredEntry& entry);
// nullopt for text that is not an entry: damaged, or written by another version of nib, which
// sets `other_version` (such an entry is left for a nib that reads it).
std::optional<StoredEntry> decode_entry(std::string_view text, bool& other_version);

// The registry directory `dir`, and its parent, checked to be real directories of this user's
// with mode 0700 (created so when `create`, else an invalid descriptor when missing); invalid
// too when a check fails.
UniqueFd open_registry_dir(const std::filesystem::path& dir, bool create);

// Writes `bytes` to `name` in `dir_fd` atomically: into `temporary_name` first, then renamed.
bool write_entry_file(int dir_fd, const std::string& name, const std::string& temporary_name,
                      std::string_view bytes);
// The content of `name` in `dir_fd` (never through a symbolic link); nullopt when unreadable.
std::optional<std::string> read_entry_file(int dir_fd, const std::string& name);

}  // namespace nib::process::registry
