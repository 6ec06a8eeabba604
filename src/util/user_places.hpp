#pragma once
// Where the user's things are: the home directory, the XDG base directories, the runtime
// directory and the temp directory, worked out by one rule from the environment (and the
// password database), so that every layer agrees. A `~` means one directory to the tools'
// paths, the permission rules and the sandbox's settings, and the settings, sessions, caches,
// private logs and the command registry are where that one rule puts them.
//
// The rule: a variable counts only when it holds an absolute path (the XDG rule, applied to
// HOME and TMPDIR too: a relative value names no stable place); without a usable HOME the
// password database's entry is the home; the XDG directories fall back to their usual places
// under the home (none without a home); the temp directory to /tmp; the runtime directory to
// none.
//
// main builds the value once at start. What main wires up gets it passed (the settings files,
// the run guard with its rules and sandbox, sessions, prompt history, extensions); what runs
// deep inside a tool call or a command, in every front end alike (the tools' `~`, private
// logs, the command registry and its crash sweep, the sandbox's temp and runtime directories),
// reads the process-wide copy main sets (process_places()), which tests set to fake it.

#include <filesystem>
#include <functional>

#include "util/environment.hpp"

namespace nib::util {

struct UserPlaces {
  std::filesystem::path home;         // $HOME, else the password database's entry, else empty
  std::filesystem::path config_home;  // $XDG_CONFIG_HOME, else <home>/.config
  std::filesystem::path data_home;    // $XDG_DATA_HOME, else <home>/.local/share
  std::filesystem::path cache_home;   // $XDG_CACHE_HOME, else <home>/.cache
  std::filesystem::path runtime_dir;  // $XDG_RUNTIME_DIR, else empty
  std::filesystem::path temp_dir;     // $TMPDIR, else /tmp

  bool operator==(const UserPlaces&) const = default;
};

// The home directory of this process's user in the password database; empty when there is
// none (or it is not absolute).
std::filesystem::path account_home();

// The places by the rule above: `variable` reads the environment; `fallback_home` is asked only
// when HOME does not count.
UserPlaces user_places(const EnvLookup& variable,
                       const std::function<std::filesystem::path()>& fallback_home = account_home);

// This process's places: those main (or a test) set, else, until then, the process
// environment's, worked out on first use. Thread-safe.
UserPlaces process_places();

// Sets what process_places() returns from now on: main, once, before anything reads them;
// tests, to fake them. Thread-safe.
void set_process_places(UserPlaces places);

}  // namespace nib::util
