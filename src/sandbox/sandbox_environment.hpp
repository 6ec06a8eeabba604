#pragma once
// Where sandboxed commands may write besides the working tree, and the environment that points
// their caches there.
//
// Compilers, package managers and test runners write caches under the home directory, which is
// read-only in the sandbox. nib does not bind those caches writable: a command could poison
// them (a planted object in ccache, a patched crate source in ~/.cargo/registry, a module in
// GOMODCACHE) and the user's next build *outside* the sandbox would run the planted code.
// Instead every cache variable points into one private directory, $XDG_CACHE_HOME/nib/sandbox
// (else ~/.cache/nib/sandbox), which only sandboxed commands use: it persists between runs, so
// builds stay warm, but nothing outside reads it. The cost: the sandbox starts without the
// user's warm caches and downloaded packages (fetch them with "network": true, into the private
// cache). CARGO_HOME moves too (cargo locks and fills it even for a build without
// dependencies), so ~/.cargo/config.toml is not read inside; RUSTUP_HOME keeps its default, so
// rustup's toolchains are found (read-only).
// Temp directories (/tmp, /var/tmp and the process's temp directory) are bound writable as they
// are, shared with the host like the tree, so files a command leaves there are visible to the
// next one. The temp and runtime directories are the process's (util/user_places.hpp): those of
// the environment every command inherits from nib.
// Thread-safe: pure apart from reading the process's places and the file system.

#include <filesystem>
#include <string>
#include <vector>

#include "process/subprocess.hpp"

namespace nib::sandbox {

// The private cache directory in the user's cache directory (util::UserPlaces::cache_home).
std::filesystem::path default_cache_root(const std::filesystem::path& cache_home);

// The cache variables, each pointing at a directory under `root`.
process::EnvironmentOverrides cache_environment(const std::filesystem::path& root);

// Creates `root` and the directories cache_environment() names; false when it cannot.
bool make_cache_directories(const std::filesystem::path& root);

// /tmp, /var/tmp and the process's temp directory ($TMPDIR): those that exist, resolved, each
// once.
std::vector<std::filesystem::path> temp_directories();

// Where the user's own programs keep their unix sockets, those that exist: the process's
// runtime directory, $XDG_RUNTIME_DIR (the session bus, agents, a container engine's), tmux's
// and X's directories under /tmp, and the directory of $SSH_AUTH_SOCK. Hidden from commands
// when the settings lift the socket filter (command_sandbox.hpp).
std::vector<std::filesystem::path> socket_directories();

// `environment` ("NAME=value" entries) with `overrides` set.
std::vector<std::string> with_variables(const std::vector<std::string>& environment,
                                        const process::EnvironmentOverrides& overrides);

}  // namespace nib::sandbox
