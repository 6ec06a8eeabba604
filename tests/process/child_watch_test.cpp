// The one loop that waits on a child (process/child_watch.hpp): what it reads and reaps, and
// that every wait it makes is the policy's, on the clock seam (a fake clock here).

#include "process/child_watch.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <stdexcept>
#include <string>
#include <vector>

#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "support/fake_clock.hpp"

namespace nib::process {
namespace {

using namespace std::chrono_literals;

// A policy that keeps what it is told and ends the watch once its `finished` rule holds.
class RecordingPolicy final : public WatchPolicy {
 public:
  std::vector<std::string> output{"", ""};
  std::vector<std::size_t> ended_pipes;
  std::optional<ChildExit> exit;
  int wakes = 0;
  std::optional<TimePoint> wake_at;  // what next() asks for
  std::function<bool(TimePoint, const WatchState&)> finished =
      [](TimePoint, const WatchState& state) { return state.exited && !state.output_open; };

  void on_output(std::size_t pipe, std::string_view bytes) override { output[pipe] += bytes; }
  void on_end(std::size_t pipe) override { ended_pipes.push_back(pipe); }
  void on_exit(const ChildExit& child_exit, TimePoint) override { exit = child_exit; }
  void on_wake(int) override { ++wakes; }
  Next next(TimePoint now, const WatchState& state) override {
    if (finished(now, state)) return {.done = true};
    return {.wake_at = wake_at};
  }
};

class ChildWatchTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(become_subreaper()); }
  void TearDown() override { kill_all_descendants(); }

  // A shell running `command`; the test stops at once when it could not start (a pid of -1
  // must never reach kill()).
  SpawnedProcess spawn_watched(const std::string& command) {
    SpawnedProcess child =
        testing::started(spawn_process({.argv = {"/bin/bash", "-c", command}, .cwd = "/"}));
    if (child.pid <= 0) throw std::runtime_error("the child could not be started");
    return child;
  }
};

TEST_F(ChildWatchTest, ReadsEachPipeToItsEndAndReapsTheChild) {
  SpawnedProcess child = spawn_watched("printf out; printf err >&2; exit 3");
  ChildWatch watch(child, {child.stdout_fd.get(), child.stderr_fd.get()}, core::steady_clock());
  RecordingPolicy policy;
  watch.run(policy);
  EXPECT_EQ(policy.output[0], "out");
  EXPECT_EQ(policy.output[1], "err");
  ASSERT_TRUE(policy.exit);
  EXPECT_TRUE(policy.exit->status_known);
  EXPECT_TRUE(WIFEXITED(policy.exit->wait_status));
  EXPECT_EQ(WEXITSTATUS(policy.exit->wait_status), 3);
  EXPECT_EQ(policy.ended_pipes.size(), 2u);
  EXPECT_TRUE(testing::process_gone(child.pid)) << "reaped, not left a zombie";
}

TEST_F(ChildWatchTest, EveryWaitEndsAtThePolicysTimeOnTheClock) {
  SpawnedProcess child = spawn_watched("exec sleep 1000");
  testing::FakeClock clock;
  ChildWatch watch(child, {child.stdout_fd.get(), child.stderr_fd.get()}, clock);
  RecordingPolicy policy;
  policy.wake_at = clock.now() + 250ms;
  policy.finished = [&](WatchPolicy::TimePoint now, const WatchState&) {
    return now >= *policy.wake_at;
  };
  auto watching = std::async(std::launch::async, [&] { watch.run(policy); });
  const auto poll = clock.await_blocked_poll();
  ASSERT_TRUE(poll);
  EXPECT_EQ(poll->deadline, policy.wake_at) << "the wait is the policy's, nothing else's";
  clock.advance(249ms);
  ASSERT_TRUE(clock.await_blocked_poll());
  EXPECT_EQ(watching.wait_for(0s), std::future_status::timeout) << "not before its time";
  clock.advance(1ms);
  watching.get();
  clock.stop_awaiting();
  EXPECT_FALSE(policy.exit) << "the child still runs";

  ::kill(child.pid, SIGKILL);
  EXPECT_TRUE(watch.wait_for_exit(policy, core::steady_clock().now() + 30s))
      << "a killed child is reaped by the watch";
  ASSERT_TRUE(policy.exit);
  EXPECT_TRUE(WIFSIGNALED(policy.exit->wait_status));
}

TEST_F(ChildWatchTest, AWakeDescriptorEndsTheWaitAndIsDrained) {
  SpawnedProcess child = spawn_watched("exec sleep 1000");
  const UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  ChildWatch watch(child, {child.stdout_fd.get(), child.stderr_fd.get()}, core::steady_clock());
  watch.add_wake_fd(wake.get());
  RecordingPolicy policy;
  policy.finished = [&](WatchPolicy::TimePoint, const WatchState&) { return policy.wakes > 0; };
  const std::uint64_t one = 1;
  ASSERT_EQ(::write(wake.get(), &one, sizeof one), static_cast<ssize_t>(sizeof one));
  watch.run(policy);
  EXPECT_EQ(policy.wakes, 1);
  std::uint64_t left = 0;
  EXPECT_EQ(::read(wake.get(), &left, sizeof left), -1) << "drained by the watch";
}

TEST_F(ChildWatchTest, WhatThePipesStillHoldIsReadWithoutWaitingUpToTheCap) {
  SpawnedProcess child = spawn_watched("head -c 300000 /dev/zero; exec sleep 1000");
  ChildWatch watch(child, {child.stdout_fd.get()}, core::steady_clock(), 1000);
  RecordingPolicy policy;
  policy.finished = [&](WatchPolicy::TimePoint, const WatchState&) {
    return !policy.output[0].empty();
  };
  watch.run(policy);
  const std::size_t before = policy.output[0].size();
  watch.read_available(policy, 5000);
  EXPECT_GE(policy.output[0].size() - before, 5000u) << "reads until the cap is reached";
  EXPECT_LE(policy.output[0].size() - before, 5999u) << "and not a read beyond it";
}

}  // namespace
}  // namespace nib::process
