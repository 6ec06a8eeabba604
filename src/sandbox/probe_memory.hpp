#pragma once
// A working bubblewrap remembered between runs of nib, so that starting does not pay for the
// probe (bubblewrap around /bin/true: about 5 ms, a third of the time to the first request)
// each time. What is remembered is a fingerprint of everything the verdict depends on: the
// boot, the user and the namespaces nib runs in, the bubblewrap program (path, inode, size,
// modification time), the kernel settings that restrict user namespaces, and the flags the
// probe tries. Any change, a reboot included, means probing again. Only a passing probe is
// remembered: a failure is probed anew each time, so a fixed system is noticed at once.
//
// Trusting a stale memory cannot loosen anything: every command still runs through
// bubblewrap, which would then fail and say why, never run the command unconfined.
// Thread-safe: no state.

#include <filesystem>
#include <string>

namespace nib::sandbox {

// The fingerprint of a probe of `bubblewrap` on this system (kernel settings read under
// `sysctl_root`), or empty when it cannot be taken (nothing is then remembered).
std::string probe_fingerprint(const std::filesystem::path& bubblewrap,
                              const std::filesystem::path& sysctl_root);

// True when `file` (in a directory of the user's own) holds exactly `fingerprint`; false when
// either is empty.
bool remembers_working(const std::filesystem::path& file, const std::string& fingerprint);

// Stores `fingerprint` in `file` (created 0600, replaced atomically) in a directory that must be
// the user's own (open_private_dir; created if missing); nothing when either is empty. Best
// effort: a failure only means probing next time.
void remember_working(const std::filesystem::path& file, const std::string& fingerprint);

}  // namespace nib::sandbox
