#pragma once
// A thread that only starts processes, for processes that must outlive the call that asked for
// them: a background job, or a foreground command that may be moved into the background. The
// parent-death signal (subprocess.hpp) fires when the *spawning thread* ends, so such a process
// is spawned here, on a thread that lives as long as its owner (the job table, for nib's whole
// run), instead of on a tool's worker thread, which ends with the call. The signal then fires
// when nib dies, as for any command, and never when the call that started it returns.
// Thread-safe: spawn() may be called from any number of threads; they take turns. The thread
// starts with the first spawn.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "process/subprocess.hpp"

namespace nib::process {

class SpawnThread {
 public:
  SpawnThread();
  // Ends the thread: every process spawned on it with die_with_spawning_thread gets SIGKILL.
  ~SpawnThread();
  SpawnThread(const SpawnThread&) = delete;
  SpawnThread& operator=(const SpawnThread&) = delete;

  // spawn_process(request), run on this thread; returns once the process has started (or not).
  util::Result<SpawnedProcess> spawn(const SpawnRequest& request);

 private:
  void serve();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::function<void()> task_;  // the spawn waiting to run; guarded by mutex_
  bool stopping_ = false;       // guarded by mutex_
  std::thread thread_;          // started by the first spawn; guarded by mutex_ until then
};

}  // namespace nib::process
