#include "process/command_runner.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "process/command_registry.hpp"
#include "process/proc_table.hpp"
#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "process/unique_fd.hpp"
#include "support/fake_clock.hpp"
#include "support/scoped_places.hpp"
#include "support/temp_dir.hpp"
#include "tools/sandbox_modes.hpp"

namespace nib::process {
namespace {

using namespace std::chrono_literals;

// Each test has a directory and a command registry of its own, and leaves no process behind.
class CommandRunnerFixture : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(become_subreaper()); }
  void TearDown() override {
    kill_all_descendants();
    forget_all_commands();
  }
  virtual bool use_pidfd() const { return true; }
  virtual bool sandboxed() const { return false; }

  CommandRequest request(const std::string& command) {
    if (sandboxed() && !sandbox_) sandbox_ = testing::test_sandbox(dir_.path(), cache_.path());
    return {.command = command,
            .cwd = dir_.path(),
            .environment = {{"NIB", "1"}},
            .stdout_log = [] { return util::Result<LogFile>::failure("no logs in this test"); },
            .stderr_log = [] { return util::Result<LogFile>::failure("no logs in this test"); },
            .use_pidfd = use_pidfd(),
            .launcher = sandbox_.get()};
  }

  testing::TempDir dir_;
  testing::TempDir cache_;
  std::shared_ptr<const CommandLauncher> sandbox_;
  testing::TempDir runtime_;
  testing::ScopedPlaces runtime_places_{&util::UserPlaces::runtime_dir, runtime_.path()};
};

// Every test runs with a pidfd and with the waitpid-polling fallback, each unconfined and in
// the sandbox (sandbox_modes.hpp).
class CommandRunnerTest : public CommandRunnerFixture,
                          public ::testing::WithParamInterface<std::tuple<bool, bool>> {
 protected:
  bool use_pidfd() const override { return std::get<0>(GetParam()); }
  bool sandboxed() const override { return std::get<1>(GetParam()); }

  CommandResult run(const std::string& command,
                    std::optional<std::chrono::duration<double>> timeout = std::nullopt,
                    std::stop_token stop = {}) {
    CommandRequest the_request = request(command);
    the_request.timeout = timeout;
    return run_command(the_request, std::move(stop));
  }

  std::vector<std::string> registry_entries() const {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry :
         std::filesystem::directory_iterator(runtime_.path() / "nib" / "commands", error)) {
      names.push_back(entry.path().filename().string());
    }
    return names;
  }
};

TEST_P(CommandRunnerTest, CollectsBothStreamsAndTheExitCode) {
  const CommandResult result = run("echo out; echo err >&2; echo \"$NIB\"; exit 5");
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.exit_code, 5);
  EXPECT_EQ(result.stdout_capture.tail(), "out\n1\n");
  EXPECT_EQ(result.stderr_capture.tail(), "err\n");
  EXPECT_TRUE(testing::process_gone(result.pid));  // reaped
}

TEST_P(CommandRunnerTest, StdinIsEmptyUnlessTextIsGivenAndThenHoldsAllOfIt) {
  EXPECT_EQ(run("wc -c").stdout_capture.tail(), "0\n");
  CommandRequest the_request = request("wc -c; echo \"$0\"");
  // Larger than a pipe's buffer: nothing has to write it while the command runs.
  the_request.stdin_text = std::string(3 * 1024 * 1024, 'x');
  the_request.shell = "/bin/sh";
  const CommandResult result = run_command(the_request, {});
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.stdout_capture.tail(), "3145728\n/bin/sh\n");
}

TEST_P(CommandRunnerTest, ReportsDeathBySignal) {
  const CommandResult result = run("kill -TERM $$");
  if (sandboxed()) {  // bubblewrap's pid 1 reports the shell's death as 128+N
    EXPECT_EQ(result.end, CommandEnd::kExited);
    EXPECT_EQ(result.exit_code, 128 + SIGTERM);
    return;
  }
  EXPECT_EQ(result.end, CommandEnd::kSignaled);
  EXPECT_EQ(result.signal, SIGTERM);
}

TEST_P(CommandRunnerTest, NoticesTheExitAfterThePipesClosed) {
  const auto gate = dir_.path() / "gate";
  testing::make_fifo(gate);
  // The command closes its output first, then waits for the gate before exiting.
  auto opener = std::async(std::launch::async, [&] {
    const int fd = ::open(gate.c_str(), O_WRONLY | O_CLOEXEC);  // blocks until the reader
    [[maybe_unused]] const auto written = ::write(fd, "go\n", 3);
    ::close(fd);
  });
  const CommandResult result = run("exec >&- 2>&-; read x < gate; exit 4");
  opener.get();
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.exit_code, 4);
}

TEST_P(CommandRunnerTest, TimeoutKillsTheWholeGroup) {
  const CommandResult result =
      run("echo started; sleep 1000 & sleep 1000", std::chrono::milliseconds(200));
  EXPECT_EQ(result.end, CommandEnd::kTimedOut);
  ASSERT_GT(result.pid, 0);
  EXPECT_TRUE(testing::process_gone(-result.pid));
  EXPECT_TRUE(testing::process_gone(result.pid));
  EXPECT_FALSE(testing::descendant_running("sleep 1000"));
}

TEST_P(CommandRunnerTest, StopKillsTheCommandAndKeepsItsOutput) {
  const auto gate = dir_.path() / "gate";
  testing::make_fifo(gate);
  std::stop_source stop;
  auto call = std::async(std::launch::async, [&] {
    return run("echo ready; echo $$ > gate; sleep 1000", std::nullopt, stop.get_token());
  });
  const pid_t shell = testing::host_pid(std::stoi(testing::read_fifo_line(gate)), sandboxed());
  ASSERT_GT(shell, 0);
  stop.request_stop();
  const CommandResult result = call.get();
  EXPECT_EQ(result.end, CommandEnd::kAborted);
  // Sandboxed, result.pid is bubblewrap's, the shell's parent.
  if (!sandboxed()) {
    EXPECT_EQ(result.pid, shell);
  }
  EXPECT_EQ(result.stdout_capture.tail(), "ready\n");
  EXPECT_TRUE(testing::process_gone(-shell));
  EXPECT_TRUE(testing::process_gone(-result.pid));
}

TEST_P(CommandRunnerTest, StopRequestedBeforehandStartsNothing) {
  std::stop_source stop;
  stop.request_stop();
  const CommandResult result = run("echo never", std::nullopt, stop.get_token());
  EXPECT_EQ(result.end, CommandEnd::kAborted);
  EXPECT_EQ(result.pid, -1);
}

TEST_P(CommandRunnerTest, BackgroundChildHoldingThePipesDoesNotHoldTheCall) {
  const CommandResult result = run("sleep 1000 & echo started");
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.stdout_capture.tail(), "started\n");
}

TEST_P(CommandRunnerTest, MissingDirectoryMeansNotStarted) {
  CommandRequest the_request = request("true");
  the_request.cwd = dir_.path() / "missing";
  const CommandResult result = run_command(the_request, {});
  EXPECT_EQ(result.end, CommandEnd::kNotStarted);
  EXPECT_EQ(result.pid, -1);
  EXPECT_FALSE(result.error.empty());
}

TEST_P(CommandRunnerTest, WithheldVariablesAreLeftOut) {
  testing::ScopedEnv secret("NIB_TEST_SECRET", "s3cret");
  CommandRequest the_request = request("echo \"${NIB_TEST_SECRET-unset} $NIB\"");
  the_request.withheld_environment = {"NIB_TEST_SECRET"};
  const CommandResult result = run_command(the_request, {});
  EXPECT_EQ(result.stdout_capture.tail(), "unset 1\n");
}

TEST_P(CommandRunnerTest, AStoppedShellIsResumedAndTheCallReturns) {
  const CommandResult result = run("kill -STOP $$; echo resumed");
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.stdout_capture.tail(), "resumed\n");
  EXPECT_EQ(result.resumed_stops, 1);
  EXPECT_NE(result.error.find("nib resumed it with SIGCONT"), std::string::npos) << result.error;
}

TEST_P(CommandRunnerTest, StoppedChildrenTheShellWaitsForAreResumed) {
  // A subshell and a grandchild in a session of its own, each stopping itself.
  const CommandResult result =
      run("(kill -STOP $BASHPID; echo child); "
          "setsid bash -c 'kill -STOP $$; echo grandchild' & wait $!; echo done");
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.stdout_capture.tail(), "child\ngrandchild\ndone\n");
  EXPECT_EQ(result.resumed_stops, 2);
}

TEST_P(CommandRunnerTest, AStoppedBackgroundProcessDoesNotHoldTheCall) {
  const CommandResult result = run("sleep 1000 & kill -STOP $!; echo started");
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.stdout_capture.tail(), "started\n");
  EXPECT_EQ(result.resumed_stops, 0);
}

TEST_P(CommandRunnerTest, ACommandIsInTheRegistryUntilNothingOfItRuns) {
  const CommandResult during = run("ls '" + (runtime_.path() / "nib" / "commands").string() + "'");
  // One entry, named *.cmd; the registry may be rewriting it (adding the shell's pid) just
  // then, through a *.tmp file renamed over it.
  const std::string listed = during.stdout_capture.tail();
  std::istringstream lines(listed);
  int entries = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.ends_with(".cmd")) {
      ++entries;
    } else {
      EXPECT_TRUE(line.ends_with(".tmp")) << listed;
    }
  }
  EXPECT_EQ(entries, 1) << listed;
  EXPECT_TRUE(registry_entries().empty());

  // A background process keeps its command's entry...
  const CommandResult background = run("sleep 1000 & echo $!");
  const pid_t sleeper = testing::host_pid(std::stoi(background.stdout_capture.tail()), sandboxed());
  ASSERT_GT(sleeper, 0);
  EXPECT_EQ(registry_entries().size(), 1u);
  // ...until it has ended, which the next command's end notices. Its ancestors up to the
  // process that adopted it (this one, or in the sandbox the init of the commands' shared pid
  // namespace) carry the command's tag too: all must be gone.
  std::vector<int> waited;
  for (pid_t pid = sleeper; pid > 1 && !adopts_orphans(pid);) {
    const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    ASSERT_GE(fd, 0);
    waited.push_back(fd);
    const auto info = read_process(pid);
    if (!info) break;
    pid = info->ppid;
  }
  ::kill(sleeper, SIGKILL);
  for (const int fd : waited) {
    pollfd entry{fd, POLLIN, 0};
    ::poll(&entry, 1, -1);
    ::close(fd);
  }
  run("true");
  EXPECT_TRUE(registry_entries().empty());
}

TEST_P(CommandRunnerTest, AKilledCommandLeavesNoEntry) {
  run("sleep 1000 & sleep 1000", std::chrono::milliseconds(100));
  EXPECT_TRUE(registry_entries().empty());
}

INSTANTIATE_TEST_SUITE_P(ExitDetection, CommandRunnerTest,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<bool, bool>>& info) {
                           return std::string(std::get<0>(info.param) ? "Pidfd"
                                                                      : "WaitpidPolling") +
                                  (std::get<1>(info.param) ? "Sandboxed" : "");
                         });

// The timing rules, on a fake clock that starts at 0 and moves only when a test advances it.
// Between steps a test waits until the runner has settled into its next wait and checks what
// it waits for, so each rule is pinned to the millisecond and no real time passes. The shell's
// exit is noticed through its pidfd (the waitpid fallback polls for it on the clock too, which
// would add steps of its own).
// These rules are the runner's own, whatever spawned the process, so they run unconfined only
// (the sandboxed runs above cover the spawn path).
class CommandTimingTest : public CommandRunnerFixture {
 protected:
  // When a poll began and until when it waits, in ms since the start.
  using Wait = std::pair<std::int64_t, std::int64_t>;

  void TearDown() override {
    // A test that failed halfway leaves the call waiting: its processes and the test's own
    // hold on the pipe are all that keep it from returning.
    kill_all_descendants();
    writer_.reset();
    if (call_.valid()) call_.wait();
    CommandRunnerFixture::TearDown();
  }

  void start(const std::string& command,
             std::optional<std::chrono::duration<double>> timeout = std::nullopt) {
    CommandRequest the_request = request(command);
    the_request.timeout = timeout;
    the_request.clock = &clock_;
    call_ = std::async(std::launch::async, [this, the_request] {
      CommandResult result = run_command(the_request, {});
      clock_.stop_awaiting();
      return result;
    });
  }

  // Starts a command whose shell exits at once and leaves a background process holding its
  // output, and opens that output for writing: the test then writes what a background process
  // would, at the moments it chooses. Returns once the shell has exited.
  void start_with_background_output() {
    const auto gate = dir_.path() / "gate";
    testing::make_fifo(gate);
    start("sleep 1000 & echo $$ $! > gate");
    std::istringstream pids(testing::read_fifo_line(gate));
    pid_t shell = 0;
    pid_t background = 0;
    pids >> shell >> background;
    const std::string output = "/proc/" + std::to_string(background) + "/fd/1";
    writer_ = UniqueFd(::open(output.c_str(), O_WRONLY | O_CLOEXEC));
    ASSERT_TRUE(writer_.valid()) << output;
    await_state(shell, WEXITED);
  }

  // Waits until the child `pid` has exited or stopped (`what`), leaving its status to the
  // runner; a child the runner has reaped already has exited too.
  static void await_state(pid_t pid, int what) {
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, what | WNOWAIT) < 0 && errno == EINTR) {
    }
  }

  void write_output(const std::string& text) {
    ASSERT_EQ(::write(writer_.get(), text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }

  // The runner's next wait once it has nothing to do; nullopt when the call returned instead.
  std::optional<Wait> next_wait() {
    const auto poll = clock_.await_blocked_poll();
    if (!poll) return std::nullopt;
    const auto ms = [](core::Clock::TimePoint when) {
      return std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count();
    };
    return Wait(ms(poll->began), poll->deadline ? ms(*poll->deadline) : -1);
  }

  testing::FakeClock clock_;
  std::future<CommandResult> call_;
  UniqueFd writer_;
};

TEST_F(CommandTimingTest, QuietForTheQuietPeriodAfterTheExitEndsTheCall) {
  start_with_background_output();
  ASSERT_EQ(next_wait(), Wait(0, 100));  // the exit was noticed at 0
  clock_.advance(99ms);
  ASSERT_EQ(next_wait(), Wait(99, 100));
  clock_.advance(1ms);
  const CommandResult result = call_.get();
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.stdout_capture.tail(), "");
  EXPECT_EQ(result.error, "");
}

TEST_F(CommandTimingTest, OutputWithinTheQuietPeriodIsKeptAndExtendsIt) {
  start_with_background_output();
  ASSERT_EQ(next_wait(), Wait(0, 100));
  clock_.advance(90ms);
  write_output("first\n");
  ASSERT_EQ(next_wait(), Wait(90, 190));
  clock_.advance(90ms);
  write_output("second\n");
  ASSERT_EQ(next_wait(), Wait(180, 280));
  clock_.advance(99ms);
  ASSERT_EQ(next_wait(), Wait(279, 280));
  clock_.advance(1ms);
  const CommandResult result = call_.get();
  EXPECT_EQ(result.stdout_capture.tail(), "first\nsecond\n");
  EXPECT_EQ(result.error, "");
}

TEST_F(CommandTimingTest, OutputThatNeverPausesIsCutTwoSecondsAfterTheExit) {
  start_with_background_output();
  ASSERT_EQ(next_wait(), Wait(0, 100));
  std::string written;
  std::int64_t at = 0;
  while (at + 90 < 2000) {
    clock_.advance(90ms);
    at += 90;
    const std::string line = "at " + std::to_string(at) + " ms\n";
    write_output(line);
    written += line;
    ASSERT_EQ(next_wait(), Wait(at, std::min<std::int64_t>(at + 100, 2000)));
  }
  ASSERT_EQ(at, 1980);
  clock_.advance(19ms);
  ASSERT_EQ(next_wait(), Wait(1999, 2000));
  clock_.advance(1ms);
  const CommandResult result = call_.get();
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.stdout_capture.tail(), written);
  EXPECT_NE(result.error.find("output was still arriving 2000 ms after the shell exited"),
            std::string::npos)
      << result.error;
  EXPECT_NE(result.error.find("(cmd > file.log 2>&1 &)"), std::string::npos) << result.error;
}

TEST_F(CommandTimingTest, TheTimeoutKillsTheCommandWhenItExpires) {
  start("sleep 1000", std::chrono::milliseconds(250));
  ASSERT_EQ(next_wait(), Wait(0, 250));
  clock_.advance(249ms);
  ASSERT_EQ(next_wait(), Wait(249, 250));
  clock_.advance(1ms);
  EXPECT_EQ(call_.get().end, CommandEnd::kTimedOut);
}

TEST_F(CommandTimingTest, AStoppedProcessIsResumedWhenAWholeGraceHasPassed) {
  const auto gate = dir_.path() / "gate";
  testing::make_fifo(gate);
  start("echo $$ > gate; kill -STOP $$; echo resumed");
  const pid_t shell = std::stoi(testing::read_fifo_line(gate));
  await_state(shell, WSTOPPED);
  const auto state = [shell] { return read_process(shell).value_or(ProcessInfo{}).state; };
  ASSERT_EQ(next_wait(), Wait(0, 1000));
  // The first check finds it stopped, and leaves it for a whole grace...
  clock_.advance(1000ms);
  ASSERT_EQ(next_wait(), Wait(1000, 2000));
  EXPECT_EQ(state(), 'T');
  clock_.advance(999ms);
  ASSERT_EQ(next_wait(), Wait(1999, 2000));
  EXPECT_EQ(state(), 'T');
  // ...and the next one, finding it still stopped, resumes it.
  clock_.advance(1ms);
  const CommandResult result = call_.get();
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.stdout_capture.tail(), "resumed\n");
  EXPECT_EQ(result.resumed_stops, 1);
}

}  // namespace
}  // namespace nib::process
