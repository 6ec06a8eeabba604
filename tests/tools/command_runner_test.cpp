#include "tools/command_runner.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.hpp"
#include "tools/command_registry.hpp"
#include "tools/process_reaper.hpp"
#include "tools/process_test_util.hpp"

namespace nib::tools {
namespace {

// Every test runs with a pidfd and with the waitpid-polling fallback.
class CommandRunnerTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { ASSERT_TRUE(become_subreaper()); }
  void TearDown() override {
    kill_all_descendants();
    forget_all_commands();
  }

  CommandRequest request(const std::string& command) const {
    return {.command = command,
            .cwd = dir_.path(),
            .environment = {{"NIB", "1"}},
            .stdout_log = [] { return util::Result<LogFile>::failure("no logs in this test"); },
            .stderr_log = [] { return util::Result<LogFile>::failure("no logs in this test"); },
            .use_pidfd = GetParam()};
  }

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

  testing::TempDir dir_;
  testing::TempDir runtime_;
  testing::ScopedEnv runtime_env_{"XDG_RUNTIME_DIR", runtime_.path().string()};
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
  const CommandResult during = run("ls \"$XDG_RUNTIME_DIR/nib/commands\"");
  const std::string listed = during.stdout_capture.tail();
  EXPECT_EQ(std::count(listed.begin(), listed.end(), '\n'), 1) << listed;
  EXPECT_NE(listed.find(".cmd\n"), std::string::npos) << listed;
  EXPECT_TRUE(registry_entries().empty());

  // A background process keeps its command's entry...
  const CommandResult background = run("sleep 1000 & echo $!");
  const pid_t sleeper = std::stoi(background.stdout_capture.tail());
  EXPECT_EQ(registry_entries().size(), 1u);
  // ...until it has ended, which the next command's end notices.
  const int sleeper_fd = static_cast<int>(::syscall(SYS_pidfd_open, sleeper, 0));
  ASSERT_GE(sleeper_fd, 0);
  ::kill(sleeper, SIGKILL);
  pollfd entry{sleeper_fd, POLLIN, 0};
  ::poll(&entry, 1, -1);
  ::close(sleeper_fd);
  run("true");
  EXPECT_TRUE(registry_entries().empty());
}

TEST_P(CommandRunnerTest, AKilledCommandLeavesNoEntry) {
  run("sleep 1000 & sleep 1000", std::chrono::milliseconds(100));
  EXPECT_TRUE(registry_entries().empty());
}

INSTANTIATE_TEST_SUITE_P(ExitDetection, CommandRunnerTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Pidfd" : "WaitpidPolling";
                         });

}  // namespace
}  // namespace nib::tools
