#pragma once
// How a foreground command moves into the background while its shell runs (Ctrl+B): its runner
// (command_runner.hpp) enrolls it with a BackgroundHandoff before the shell starts, watches the
// enrolment's descriptor, and when a move is requested hands the running command over. The job
// table (job_table.hpp) is the one implementation; this seam lets the runner know nothing of the
// table, which itself starts commands with the runner's request type. Thread-safe.

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "util/result.hpp"

namespace nib::process {

class SpawnThread;      // spawn_thread.hpp
struct StartedCommand;  // command_start.hpp

// A running foreground command's enrolment, owned by its runner; destroying it withdraws the
// command (a move requested meanwhile gives its place back).
class MoveEnrolment {
 public:
  virtual ~MoveEnrolment() = default;
  // An eventfd, readable once a move has been requested (read it to clear it); -1 if none
  // could be made (the command then cannot move).
  virtual int fd() const = 0;
  virtual bool move_requested() const = 0;
};

// What a moved command became.
struct AdoptedCommand {
  int job_id = 0;
  std::filesystem::path log;  // where its output goes from now on
};

class BackgroundHandoff {
 public:
  // The thread a movable command's shell is spawned on, so that it outlives its call's thread.
  virtual SpawnThread& spawn_thread() = 0;
  // The runner of `command`, about to start it (at `started`), makes it movable; null when it
  // cannot be.
  virtual std::unique_ptr<MoveEnrolment> enroll(std::string command,
                                                std::chrono::steady_clock::time_point started) = 0;
  // The runner of `enrolment`, asked to move, hands over its running `command` (whose output it
  // has read so far). Moves from `command` only when it succeeds; on failure the command stays
  // the runner's and is no longer movable.
  virtual util::Result<AdoptedCommand> adopt(MoveEnrolment& enrolment, StartedCommand& command) = 0;

 protected:
  ~BackgroundHandoff() = default;
};

}  // namespace nib::process
