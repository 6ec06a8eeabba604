#include "tools/command_runner.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <future>
#include <string>
#include <thread>

#include "support/temp_dir.hpp"
#include "tools/process_reaper.hpp"
#include "tools/process_test_util.hpp"

namespace nib::tools {
namespace {

// Every test runs with a pidfd and with the waitpid-polling fallback.
class CommandRunnerTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { ASSERT_TRUE(become_subreaper()); }
  void TearDown() override { kill_all_descendants(); }

  CommandResult run(const std::string& command,
                    std::optional<std::chrono::duration<double>> timeout = std::nullopt,
                    std::stop_token stop = {}) {
    return run_command({.command = command,
                        .cwd = dir_.path(),
                        .timeout = timeout,
                        .environment = {{"NIB", "1"}},
                        .stdout_log =
                            [] {
                              return LogFile{{}, {}, "no logs in this test"};
                            },
                        .stderr_log =
                            [] {
                              return LogFile{{}, {}, "no logs in this test"};
                            },
                        .use_pidfd = GetParam()},
                       std::move(stop));
  }

  testing::TempDir dir_;
};

TEST_P(CommandRunnerTest, CollectsBothStreamsAndTheExitCode) {
  const CommandResult result = run("echo out; echo err >&2; echo \"$NIB\"; exit 5");
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_EQ(result.exit_code, 5);
  EXPECT_EQ(result.stdout_capture.tail(), "out\n1\n");
  EXPECT_EQ(result.stderr_capture.tail(), "err\n");
  EXPECT_TRUE(testing::process_gone(result.pid));  // reaped
}

TEST_P(CommandRunnerTest, ReportsDeathBySignal) {
  const CommandResult result = run("kill -TERM $$");
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
}

TEST_P(CommandRunnerTest, StopKillsTheCommandAndKeepsItsOutput) {
  const auto gate = dir_.path() / "gate";
  testing::make_fifo(gate);
  std::stop_source stop;
  auto call = std::async(std::launch::async, [&] {
    return run("echo ready; echo $$ > gate; sleep 1000", std::nullopt, stop.get_token());
  });
  const pid_t shell = std::stoi(testing::read_fifo_line(gate));
  stop.request_stop();
  const CommandResult result = call.get();
  EXPECT_EQ(result.end, CommandEnd::kAborted);
  EXPECT_EQ(result.pid, shell);
  EXPECT_EQ(result.stdout_capture.tail(), "ready\n");
  EXPECT_TRUE(testing::process_gone(-shell));
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
  const CommandResult result =
      run_command({.command = "true", .cwd = dir_.path() / "missing", .use_pidfd = GetParam()}, {});
  EXPECT_EQ(result.end, CommandEnd::kNotStarted);
  EXPECT_EQ(result.pid, -1);
  EXPECT_FALSE(result.error.empty());
}

INSTANTIATE_TEST_SUITE_P(ExitDetection, CommandRunnerTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Pidfd" : "WaitpidPolling";
                         });

}  // namespace
}  // namespace nib::tools
