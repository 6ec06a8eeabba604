#pragma once
// What must still happen when nib quits without waiting for its tools (a second Ctrl-C,
// SIGTERM, SIGHUP): the run in progress registers it for its lifetime, and the signal thread
// runs it just before the process ends. Thread-safe.

#include <functional>

namespace nib::app {

// Registers `hook` until destroyed (one at a time: a later one replaces the earlier).
class ScopedForcedQuitHook {
 public:
  explicit ScopedForcedQuitHook(std::function<void()> hook);
  ~ScopedForcedQuitHook();
  ScopedForcedQuitHook(const ScopedForcedQuitHook&) = delete;
  ScopedForcedQuitHook& operator=(const ScopedForcedQuitHook&) = delete;
};

// Runs the registered hook, if any. Called once, by the code that ends the process.
void run_forced_quit_hook();

}  // namespace nib::app
