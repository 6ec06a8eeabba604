#pragma once
// The one loop that waits on a child nib started: it reads the child's output pipes as they
// fill, notices its exit (its pidfd, or waitpid every kExitPollInterval on a kernel without
// pidfds), wakes when one of the owner's event descriptors fires (a stop, a kill or a move
// request), and between every two waits asks the owner's end policy whether the watch is over
// and until when it may sleep. Every wait goes through a core::Clock, so each policy's rules can
// be tested with a fake clock.
//
// Three end policies use it: a command a call waits for ends once its shell has exited and its
// pipes are quiet (command_runner.cpp), a background job once nothing of its tree runs
// (job.cpp), an MCP server's reader once the server's stdout ends or it exits
// (mcp/stdio_transport.cpp). Not thread-safe: one thread runs a watch.

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "core/clock.hpp"
#include "process/subprocess.hpp"

namespace nib::process {

// Without a pidfd (an old kernel), a watch notices the child's exit by polling waitpid this
// often: a delay nobody notices, a cost nobody measures.
inline constexpr std::chrono::milliseconds kExitPollInterval{10};

// How the watched child ended.
struct ChildExit {
  bool status_known = true;  // false: it was reaped elsewhere, its status is lost
  int wait_status = 0;       // as waitpid gives it (reported_wait_status: a launcher's report)
};

// What the watch has seen, for the policy's decisions.
struct WatchState {
  bool exited = false;                   // the child's exit was seen
  bool output_open = true;               // some watched pipe has not reached its end
  core::Clock::TimePoint last_output{};  // when a read last gave bytes
};

// What the owner of a watch decides. Every call comes from the thread running the watch.
class WatchPolicy {
 public:
  using TimePoint = core::Clock::TimePoint;
  struct Next {
    bool done = false;
    // The next moment a decision may change without a descriptor becoming ready; none: only
    // a descriptor ends the wait.
    std::optional<TimePoint> wake_at;
  };

  virtual ~WatchPolicy() = default;
  // Bytes read from the watched pipe at `pipe` (its index in the watch's list).
  virtual void on_output(std::size_t pipe, std::string_view bytes) = 0;
  // The watched pipe at `pipe` has reached its end (or failed).
  virtual void on_end(std::size_t pipe) { static_cast<void>(pipe); }
  // The child has exited (reaped by the watch) at `now`.
  virtual void on_exit(const ChildExit& exit, TimePoint now) = 0;
  // The wake-up descriptor `fd` was readable; the watch has drained it.
  virtual void on_wake(int fd) { static_cast<void>(fd); }
  // Between waits: whether the watch is over, else until when it may wait.
  virtual Next next(TimePoint now, const WatchState& state) = 0;
};

class ChildWatch {
 public:
  using TimePoint = core::Clock::TimePoint;

  // Watches `child` (registered with the process reaper: the watch reaps it) and the read ends
  // `pipes` (non-blocking; invalid ones, -1, are left out but keep their index), reading at
  // most `chunk_bytes` at a time (larger reads keep a flooding child near pipe speed).
  ChildWatch(const SpawnedProcess& child, std::vector<int> pipes, core::Clock& clock,
             std::size_t chunk_bytes = 64 * 1024);

  // An eventfd whose readiness ends a wait (drained, then policy.on_wake); -1 is ignored.
  void add_wake_fd(int fd);
  void remove_wake_fd(int fd);

  // Waits, reads and asks the policy until its next() says the watch is done. It may be run
  // again afterwards (a command that could not be moved goes on in the foreground).
  void run(WatchPolicy& policy);
  // Reads each open pipe until it is empty or has given `cap` bytes, without waiting: what a
  // pipe still holds when the watch is over.
  void read_available(WatchPolicy& policy,
                      std::uint64_t cap = std::numeric_limits<std::uint64_t>::max());
  // Waits on the clock until the child exits (policy.on_exit) or `deadline` passes; true when
  // its exit was seen. For a child that was killed and must be reaped.
  bool wait_for_exit(WatchPolicy& policy, TimePoint deadline);

  const WatchState& state() const { return state_; }

 private:
  struct Pipe {
    int fd;
    bool open;
  };
  // Reaps the child if it has exited; tells the policy.
  void check_exit(WatchPolicy& policy, TimePoint now);
  // Reads once from `pipe`; the bytes it gave (0 at its end or when it had none).
  std::size_t read_once(std::size_t index, WatchPolicy& policy);
  void update_output_open();

  const SpawnedProcess& child_;
  std::vector<Pipe> pipes_;
  std::vector<int> wake_fds_;
  core::Clock& clock_;
  std::vector<char> buffer_;
  WatchState state_;
};

}  // namespace nib::process
