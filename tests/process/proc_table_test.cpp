#include "process/proc_table.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "process/subprocess.hpp"

namespace nib::process {
namespace {

// The fields after the name, as proc(5) lists them: state, ppid, pgrp, session, tty_nr, tpgid,
// flags, minflt, cminflt, majflt, cmajflt, utime, stime, cutime, cstime, priority, nice,
// num_threads, itrealvalue, starttime, vsize, ...
TEST(ParseProcStat, ReadsPidStateParentGroupSessionAndStartTime) {
  const auto info = parse_proc_stat(
      "1234 (bash) S 1 1234 1230 34816 -1 4194560 100 0 0 0 1 2 0 0 20 -5 1 0 987654 8372224 "
      "1000 18446744073709551615 1 1 0 0 0 0 65536 3670020 1266777851 0 0 0 17 1 0 0 0 0 0\n");
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->pid, 1234);
  EXPECT_EQ(info->state, 'S');
  EXPECT_EQ(info->ppid, 1);
  EXPECT_EQ(info->pgid, 1234);
  EXPECT_EQ(info->sid, 1230);
  EXPECT_EQ(info->start_time, 987654u);
}

TEST(ParseProcStat, HandlesNamesWithSpacesAndParentheses) {
  const auto info = parse_proc_stat("77 (a) b (c)) Z 5 9 9 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 42 0 0");
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->pid, 77);
  EXPECT_EQ(info->state, 'Z');
  EXPECT_EQ(info->ppid, 5);
  EXPECT_EQ(info->pgid, 9);
  EXPECT_EQ(info->start_time, 42u);
}

// An exiting process (PF_EXITING, 0x4, in the flags) runs no more, but has not exited until
// it is a zombie; neither holds while threads of it go on.
TEST(ParseProcStat, TellsAnExitingProcessFromOneWhoseFirstThreadEnded) {
  const auto exiting = parse_proc_stat("9 (init) R 1 9 9 0 -1 4194564 0 0 0 0 0 0 0 0 20 0 1 0 7");
  ASSERT_TRUE(exiting.has_value());
  EXPECT_TRUE(exiting->exiting);
  EXPECT_EQ(exiting->threads, 1);
  EXPECT_TRUE(runs_no_more(*exiting));
  EXPECT_FALSE(has_exited(*exiting));
  const auto running = parse_proc_stat("9 (a) R 1 9 9 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 7");
  ASSERT_TRUE(running.has_value());
  EXPECT_FALSE(running->exiting);
  EXPECT_FALSE(runs_no_more(*running));
  const auto zombie = parse_proc_stat("9 (a) Z 1 9 9 0 -1 4194564 0 0 0 0 0 0 0 0 20 0 1 0 7");
  ASSERT_TRUE(zombie.has_value());
  EXPECT_TRUE(has_exited(*zombie));
  EXPECT_TRUE(runs_no_more(*zombie));
  const auto threads_left =
      parse_proc_stat("9 (a) Z 1 9 9 0 -1 4194564 0 0 0 0 0 0 0 0 20 0 3 0 7");
  ASSERT_TRUE(threads_left.has_value());
  EXPECT_EQ(threads_left->threads, 3);
  EXPECT_FALSE(has_exited(*threads_left));
  EXPECT_FALSE(runs_no_more(*threads_left));
}

// The kernel's view of a process whose first thread called pthread_exit while another thread
// runs: a zombie leader, exiting, with the process still there.
TEST(ReadProcess, AProcessWhoseFirstThreadEndedHasNotExited) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    static int ready_fd = ready[1];
    static pthread_t first = ::pthread_self();
    pthread_t other;
    ::pthread_create(
        &other, nullptr,
        [](void*) -> void* {
          ::pthread_join(first, nullptr);  // returns once the first thread has exited
          [[maybe_unused]] const auto written = ::write(ready_fd, "x", 1);
          while (true) ::pause();
        },
        nullptr);
    // The first thread alone ends, without unwinding into the test framework.
    ::syscall(SYS_exit, 0);
  }
  ::close(ready[1]);
  char byte;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ::close(ready[0]);
  const auto info = read_process(child);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->threads, 2);
  EXPECT_FALSE(has_exited(*info));
  EXPECT_FALSE(runs_no_more(*info));
  ::kill(child, SIGKILL);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
}

TEST(ParseProcStat, RejectsMalformedText) {
  EXPECT_FALSE(parse_proc_stat("").has_value());
  EXPECT_FALSE(parse_proc_stat("12 (x").has_value());
  EXPECT_FALSE(parse_proc_stat("x (y) S 1 2").has_value());
  EXPECT_FALSE(parse_proc_stat("12 (y) S").has_value());
  // Cut before the start time, which names a process for good.
  EXPECT_FALSE(parse_proc_stat("12 (y) S 1 12 12 0 -1 4194560 ...").has_value());
}

TEST(ReadProcess, MatchesTheKernelsViewOfThisProcess) {
  const auto info = read_process(::getpid());
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->ppid, ::getppid());
  EXPECT_EQ(info->pgid, ::getpgrp());
  EXPECT_EQ(info->sid, ::getsid(0));
  EXPECT_GT(info->start_time, 0u);
  EXPECT_FALSE(read_process(0).has_value());
}

TEST(BootTimeTicks, IsTheClockOfStartTimes) {
  EXPECT_LE(read_process(::getpid())->start_time, boot_time_ticks());
  const std::uint64_t before = boot_time_ticks();
  SpawnedProcess process =
      testing::started(spawn_process({.argv = {"/bin/true"}, .cwd = "/", .environment = {}}));
  ASSERT_GT(process.pid, 0);
  const auto child = read_process(process.pid);  // alive, or a zombie until reaped
  ASSERT_TRUE(child.has_value());
  EXPECT_GE(child->start_time, before);
  EXPECT_LE(child->start_time, boot_time_ticks());
  pollfd exit_entry{process.pidfd.get(), POLLIN, 0};
  ::poll(&exit_entry, 1, -1);
  int status = 0;
  EXPECT_EQ(reap_registered(process.pid, &status), ReapStatus::kReaped);
}

TEST(EnvironmentHas, FindsWholeEntriesOnly) {
  // Once the shell prints, its environment is in place (in the middle of execve it is not; the
  // ':' keeps bash from exec'ing sleep in its place).
  SpawnedProcess process =
      testing::started(spawn_process({.argv = {"/bin/bash", "-c", "echo ready; sleep 1000; :"},
                                      .cwd = "/",
                                      .environment = {"A=1", "NIB_PROC_TABLE_TEST=present"}}));
  ASSERT_GT(process.pid, 0);
  char buffer[16];
  pollfd ready{process.stdout_fd.get(), POLLIN, 0};
  ASSERT_EQ(::poll(&ready, 1, -1), 1);
  ASSERT_GT(::read(process.stdout_fd.get(), buffer, sizeof buffer), 0);
  EXPECT_TRUE(environment_has(process.pid, "NIB_PROC_TABLE_TEST=present"));
  EXPECT_TRUE(environment_has(process.pid, "A=1"));
  EXPECT_EQ(find_environment_entry(process.pid, "NIB_PROC_TABLE_TEST=pres"),
            EnvironmentEntry::kAbsent);
  EXPECT_EQ(find_environment_entry(process.pid, "NIB_PROC_TABLE_TEST"), EnvironmentEntry::kAbsent);
  kill_all_descendants();
  pollfd exit_entry{process.pidfd.get(), POLLIN, 0};
  ::poll(&exit_entry, 1, -1);
  int status = 0;
  ASSERT_EQ(reap_registered(process.pid, &status), ReapStatus::kReaped);
  EXPECT_EQ(find_environment_entry(process.pid, "NIB_PROC_TABLE_TEST=present"),
            EnvironmentEntry::kUnknown);
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

}  // namespace
}  // namespace nib::process
