#pragma once
// What the command registry (command_registry.hpp) records of one command, shared by the
// registry and the store that writes it to disk (command_registry_store.hpp).

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace nib::process {

// The notice quotes this much of each command (whole UTF-8 characters).
inline constexpr std::size_t kRecordedCommandBytes = 200;

// What the runner knows of a command: first before its shell starts, then with the shell.
struct CommandRecord {
  std::uint64_t started_after = 0;      // boot_time_ticks() before the shell was started
  pid_t leader = 0;                     // the shell; 0 until it has started
  std::uint64_t leader_start_time = 0;  // ProcessInfo::start_time of the shell
  std::string tag;                      // the value of kCommandTagVariable
  std::string call_id;                  // the tool call that runs it
  std::string command;                  // its text (only the start is kept)
  int job_id = 0;                       // the background job it is (job_table.hpp); 0: none
};

}  // namespace nib::process
