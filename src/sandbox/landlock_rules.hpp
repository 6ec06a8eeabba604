#pragma once
// The fallback where bubblewrap cannot create namespaces: Landlock (Linux >= 5.13), applied by
// the spawned child just before execve (SpawnRequest::landlock_ruleset). It enforces the file
// system rules: everything readable and executable, writes only beneath the writable paths (the
// tree, temp and cache directories) and to /dev's devices. Where the kernel's Landlock is new
// enough it also blocks TCP bind and connect (ABI 4, Linux 6.7; it cannot tell loopback from the
// internet, so loopback is blocked too) and signals to processes outside the sandbox (ABI 6,
// Linux 6.12). Places to hide (the home directory's secret places) are left out of what is
// readable: everything beside each of them is granted on its own, the directories on their way
// listed when the ruleset is made (so what is created there later is not readable by that
// command). What it cannot do: protect paths *inside* a writable tree (rules only grant), so
// .git/hooks, .nib/ and the rest are writable under Landlock; and isolate pids or UDP.
// The system calls are made directly: glibc has no wrappers, and Debian 12's linux/landlock.h
// predates the network and scope fields, so the structures are declared here from the kernel's
// documented ABI. Thread-safe: pure apart from the system calls.

#include <filesystem>
#include <vector>

#include "process/unique_fd.hpp"
#include "util/result.hpp"

namespace nib::sandbox {

// The kernel's Landlock ABI version; 0 when Landlock is missing or disabled.
int landlock_abi();

// What the ruleset for `abi` restricts beyond the file system, for the verdict line.
bool landlock_blocks_tcp(int abi);
bool landlock_scopes_signals(int abi);

struct WritablePlaces {
  std::vector<std::filesystem::path> writable;  // absolute; those that do not exist are skipped
  // A place below one of them that stays read-only (the home directory in a temp directory):
  // that one is then granted entry by entry around it, as they are when the ruleset is made, so
  // nothing new can be made directly in it. Empty: none.
  std::filesystem::path kept_read_only;
};

// A ruleset for `abi` granting reads of everything but `hidden` (absolute; a hidden place inside
// a writable one stays reachable through it), writes where `places` says and, unless `network`,
// blocking TCP where the ABI can.
util::Result<process::UniqueFd> landlock_ruleset(
    int abi, const WritablePlaces& places, bool network,
    const std::vector<std::filesystem::path>& hidden = {});

}  // namespace nib::sandbox
