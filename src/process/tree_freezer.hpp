#pragma once
// Freezing and killing a set of processes that may be forking as fast as it can (the kill step
// behind process_reaper.hpp's functions). The set is described, not listed, because it changes
// while it is being read: see KillScope. Freezing passes over /proc again and again, stopping
// (SIGSTOP) each wanted process the moment it is read and each wanted process group with one
// kill(), until a pass finds nothing it had not stopped; then everything is SIGKILLed at once.
// A frozen process cannot fork, so the passes end unless the set grows faster than /proc can
// be read; kMaxFreezeRounds bounds them in that case. A candidate whose environment could not
// be read (it was in the middle of execve) is read again on a later pass, a few times, even
// when nothing new was stopped.
// Not thread-safe: one freezer per kill, used by one thread.

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "process/proc_table.hpp"

namespace nib::process {

// Which processes one kill is after. A living process that started no earlier than
// `not_before` is wanted when it is one of `roots`, or its parent is one of `parents` or is
// wanted, or it is in `group` or in the group of a wanted process (never this process's own
// group or session), or it carries `tag` in its environment and is a candidate for that check
// (a child of this process or of an adopter of its orphans, process_reaper.hpp, or with
// `tag_anywhere` any process). `excluded` are never wanted.
struct KillScope {
  std::vector<pid_t> roots;
  std::vector<pid_t> parents;
  std::optional<pid_t> group;
  std::string tag;  // "NAME=value"; empty for none
  bool tag_anywhere = false;
  std::uint64_t not_before = 0;
  std::unordered_set<pid_t> excluded;
  // How a process's environment is checked for `tag`; a seam so tests can make a read fail the
  // way it does while the process is between execve and its new environment.
  std::function<EnvironmentEntry(pid_t, std::string_view)> read_environment =
      find_environment_entry;
};

class TreeFreezer {
 public:
  explicit TreeFreezer(KillScope scope);

  // Passes over /proc until one stops nothing new (or kMaxFreezeRounds); returns the passes.
  int freeze();
  // SIGKILLs every group and process frozen, then waits (at most kKillWaitCap) until each has
  // died; the dead may remain as zombies.
  void kill();

 private:
  // One pass; true when it stopped a process it had not stopped before. Sets unsettled_ when a
  // candidate's environment could not be read.
  bool freeze_pass();
  bool wanted(const ProcessInfo& info);
  bool carries_tag(const ProcessInfo& info);
  void stop_group(pid_t group);

  const KillScope scope_;
  const pid_t self_;
  const pid_t own_group_;
  const pid_t own_session_;
  std::unordered_set<pid_t> members_;  // stopped, and to be killed
  std::unordered_set<pid_t> groups_;   // stopped as a whole, and to be killed as a whole
  // Processes whose environment was read and lacks the tag, with their start times: read once.
  // (One whose environment could not be read is read again at the next pass.)
  std::unordered_map<pid_t, std::uint64_t> untagged_;
  bool unsettled_ = false;
};

}  // namespace nib::process
