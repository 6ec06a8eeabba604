#include "process/orphan_adopters.hpp"

#include <unistd.h>

#include <mutex>
#include <unordered_set>

namespace nib::process {
namespace {

// Processes other than nib that reap the orphans of commands (add_adopter).
struct Adopters {
  std::mutex mutex;
  std::unordered_set<pid_t> pids;
};

Adopters& adopters() {
  static Adopters adopters;
  return adopters;
}

}  // namespace

void add_adopter(pid_t pid) {
  const std::lock_guard lock(adopters().mutex);
  adopters().pids.insert(pid);
}

void remove_adopter(pid_t pid) {
  const std::lock_guard lock(adopters().mutex);
  adopters().pids.erase(pid);
}

bool adopts_orphans(pid_t pid) {
  if (pid == ::getpid()) return true;
  const std::lock_guard lock(adopters().mutex);
  return adopters().pids.contains(pid);
}

}  // namespace nib::process
