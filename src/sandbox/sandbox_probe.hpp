#pragma once
// Whether commands can be confined here, and how: bubblewrap (namespaces), Landlock (the file
// system rules only), or nothing. The probe runs bubblewrap once with the very flags commands
// get (a few milliseconds; a pass is remembered between runs, probe_memory.hpp) and, when that
// fails, reads the kernel settings that usually cause it, so the verdict's one line names the
// cause and the fix. Nothing here crashes or runs a
// command unconfined; the caller caches the verdict (command_sandbox.hpp).
// Thread-safe: probe_sandbox() keeps no state.

#include <filesystem>
#include <optional>
#include <string>

namespace nib::sandbox {

enum class Confinement {
  kBubblewrap,
  kLandlock,
  kNone,
};

struct ProbeVerdict {
  Confinement confinement = Confinement::kNone;
  // One line for the user and the model: what confines commands, or why nothing can and how
  // to fix it ("sandbox: ...").
  std::string line;
  std::filesystem::path bubblewrap;  // the program that passed the probe
  int landlock_abi = 0;
};

// Where the probe looks; tests point these at fakes to simulate a system without namespaces.
struct ProbeOptions {
  // The bubblewrap program; empty: `bwrap` on PATH.
  std::filesystem::path bubblewrap;
  std::filesystem::path sysctl_root = "/proc/sys";
  std::optional<int> landlock_abi;  // the kernel's Landlock ABI (0: none); empty: ask the kernel
  // Where a working bubblewrap is remembered between runs (probe_memory.hpp); empty: probe
  // every time.
  std::filesystem::path memory;
};

ProbeVerdict probe_sandbox(const ProbeOptions& options = {});

}  // namespace nib::sandbox
