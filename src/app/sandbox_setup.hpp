#pragma once
// The command sandbox as the application sets it up (src/sandbox/command_sandbox.hpp): its
// settings read from every settings file's "sandbox" section, the working directory as the
// tree, the private cache in the user's cache directory (nib/sandbox), and the probe run
// now, so that a system where commands cannot be confined is reported at start, in one line.
// The run's guard puts it behind the launcher bash gets (run_guard.hpp). Not thread-safe:
// called once at start-up.

#include <filesystem>
#include <memory>
#include <string>

#include "app/settings.hpp"
#include "sandbox/command_sandbox.hpp"
#include "util/result.hpp"
#include "util/user_places.hpp"
#include "workspace/protected_tree.hpp"

namespace nib::app {

struct SandboxSetup {
  // Null when the sandbox is switched off (--no-sandbox, "sandbox": {"enabled": false}):
  // commands then run with the user's rights, as before there was a sandbox.
  std::shared_ptr<sandbox::CommandSandbox> sandbox;
  // For stderr at start: the verdict's line when commands cannot run under bubblewrap (the
  // fallback, or nothing), else empty.
  std::string notice;
};

// `places`: the user's home (as the tools and the rules resolve `~`) and cache directory.
// `disabled`: the user's switch (--no-sandbox). `protected_tree`: what in the tree commands must
// not change.
// `hidden`: the places commands must not see (the home directory's secret places no rule allows). A
// broken "sandbox" section is a failure naming the file ("nib: FILE: sandbox.FIELD: problem").
util::Result<SandboxSetup> setup_sandbox(
    const Configuration& configuration, const util::UserPlaces& places,
    const std::filesystem::path& cwd, bool disabled,
    std::shared_ptr<const workspace::ProtectedTree> protected_tree,
    std::vector<std::filesystem::path> hidden);

}  // namespace nib::app
