#pragma once
// Things the signal thread must have done by whoever is running at the moment: what must
// still happen when nib quits without waiting for its tools (a second Ctrl-C, SIGTERM,
// SIGHUP), and who redraws when the terminal is resized. The code that owns the work registers
// a hook for its lifetime; the signal thread runs it. Thread-safe.

#include <functional>

namespace nib::app {

enum class ProcessHook {
  kForcedQuit,       // run just before the process ends
  kTerminalResized,  // SIGWINCH
};

// Registers `hook` for `which` until destroyed (one per kind: a later one replaces the
// earlier).
class ScopedProcessHook {
 public:
  ScopedProcessHook(ProcessHook which, std::function<void()> hook);
  ~ScopedProcessHook();
  ScopedProcessHook(const ScopedProcessHook&) = delete;
  ScopedProcessHook& operator=(const ScopedProcessHook&) = delete;

 private:
  ProcessHook which_;
};

// Runs the hook registered for `which`, if any.
void run_process_hook(ProcessHook which);

}  // namespace nib::app
