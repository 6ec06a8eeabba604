#include "tools/process_reaper.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "support/temp_dir.hpp"
#include "tools/process_test_util.hpp"
#include "tools/subprocess.hpp"

namespace nib::tools {
namespace {

TEST(ParseProcStat, ReadsPidStateParentAndGroup) {
  const auto info = parse_proc_stat("1234 (bash) S 1 1234 1234 0 -1 4194560 ...");
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->pid, 1234);
  EXPECT_EQ(info->state, 'S');
  EXPECT_EQ(info->ppid, 1);
  EXPECT_EQ(info->pgid, 1234);
}

TEST(ParseProcStat, HandlesNamesWithSpacesAndParentheses) {
  const auto info = parse_proc_stat("77 (a) b (c)) Z 5 9 9 0");
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->pid, 77);
  EXPECT_EQ(info->state, 'Z');
  EXPECT_EQ(info->ppid, 5);
  EXPECT_EQ(info->pgid, 9);
}

TEST(ParseProcStat, RejectsMalformedText) {
  EXPECT_FALSE(parse_proc_stat("").has_value());
  EXPECT_FALSE(parse_proc_stat("12 (x").has_value());
  EXPECT_FALSE(parse_proc_stat("x (y) S 1 2").has_value());
  EXPECT_FALSE(parse_proc_stat("12 (y) S").has_value());
}

TEST(CollectDescendants, FollowsParentChainsAndExcludesRoots) {
  const std::vector<ProcessInfo> processes = {{.pid = 1, .ppid = 0},   {.pid = 10, .ppid = 1},
                                              {.pid = 11, .ppid = 10}, {.pid = 12, .ppid = 11},
                                              {.pid = 20, .ppid = 1},  {.pid = 21, .ppid = 20},
                                              {.pid = 13, .ppid = 10}};
  auto found = collect_descendants(processes, {10});
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<pid_t>{11, 12, 13}));
  found = collect_descendants(processes, {11, 20});
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<pid_t>{12, 21}));
  EXPECT_TRUE(collect_descendants(processes, {99}).empty());
}

TEST(ScanProcesses, FindsThisProcess) {
  const auto processes = scan_processes();
  const auto self = std::find_if(processes.begin(), processes.end(),
                                 [](const ProcessInfo& info) { return info.pid == ::getpid(); });
  ASSERT_NE(self, processes.end());
  EXPECT_EQ(self->ppid, ::getppid());
}

class ProcessReaperTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(become_subreaper()); }
  void TearDown() override { kill_all_descendants(); }

  // Runs `command` to completion (its stdout read to the end) and returns that stdout.
  std::string run_to_end(const std::string& command) {
    SpawnedProcess process = spawn_process({.argv = {"/bin/bash", "-c", command},
                                            .cwd = dir_.path(),
                                            .environment = merge_environment(environ, {})});
    EXPECT_GT(process.pid, 0) << process.error;
    std::string text;
    char buffer[256];
    while (true) {
      pollfd entry{process.stdout_fd.get(), POLLIN, 0};
      ::poll(&entry, 1, -1);
      const ssize_t got = ::read(process.stdout_fd.get(), buffer, sizeof buffer);
      if (got == 0) break;
      if (got > 0) text.append(buffer, static_cast<std::size_t>(got));
    }
    int status = 0;
    pollfd exit_entry{process.pidfd.get(), POLLIN, 0};
    while (reap_registered(process.pid, &status) == ReapStatus::kRunning) {
      ::poll(&exit_entry, 1, 100);
    }
    return text;
  }

  testing::TempDir dir_;
};

TEST_F(ProcessReaperTest, OrphansInNewSessionsBecomeOurChildrenAndAreKilled) {
  // The daemon starts its own session, leaves its output pipe, and its parent exits.
  const std::string output = run_to_end("setsid sleep 1000 >/dev/null 2>&1 & echo $!");
  const pid_t daemon = std::stoi(output);
  const auto processes = scan_processes();
  const auto info = std::find_if(processes.begin(), processes.end(),
                                 [daemon](const ProcessInfo& p) { return p.pid == daemon; });
  ASSERT_NE(info, processes.end());
  EXPECT_EQ(info->ppid, ::getpid());  // adopted: we are its subreaper
  EXPECT_NE(::getsid(daemon), ::getsid(0));
  kill_all_descendants();
  EXPECT_TRUE(testing::process_gone(daemon));  // killed and reaped, not a zombie
}

TEST_F(ProcessReaperTest, KillAllDescendantsReachesGrandchildren) {
  const std::string fifo = (dir_.path() / "gate").string();
  testing::make_fifo(fifo);
  SpawnedProcess process =
      spawn_process({.argv = {"/bin/bash", "-c", "sleep 1000 & echo $! > " + fifo + "; wait"},
                     .cwd = dir_.path(),
                     .environment = merge_environment(environ, {})});
  ASSERT_GT(process.pid, 0) << process.error;
  const pid_t grandchild = std::stoi(testing::read_fifo_line(fifo));
  kill_all_descendants();
  EXPECT_TRUE(testing::process_gone(grandchild));
  // The registered shell is killed but left for its owner to reap.
  int status = 0;
  pollfd entry{process.pidfd.get(), POLLIN, 0};
  ::poll(&entry, 1, -1);
  ASSERT_EQ(reap_registered(process.pid, &status), ReapStatus::kReaped);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
}

TEST_F(ProcessReaperTest, ReapAdoptedZombiesLeavesRegisteredChildrenAlone) {
  SpawnedProcess process = spawn_process({.argv = {"/bin/bash", "-c", "exit 7"},
                                          .cwd = dir_.path(),
                                          .environment = merge_environment(environ, {})});
  ASSERT_GT(process.pid, 0) << process.error;
  pollfd entry{process.pidfd.get(), POLLIN, 0};
  ::poll(&entry, 1, -1);  // exited, not yet reaped
  reap_adopted_zombies();
  int status = 0;
  ASSERT_EQ(reap_registered(process.pid, &status), ReapStatus::kReaped);
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

}  // namespace
}  // namespace nib::tools
