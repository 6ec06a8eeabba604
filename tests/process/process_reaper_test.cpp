#include "process/process_reaper.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "process/process_test_util.hpp"
#include "process/subprocess.hpp"
#include "support/temp_dir.hpp"

namespace nib::process {
namespace {

class ProcessReaperTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(become_subreaper()); }
  void TearDown() override { kill_all_descendants(); }

  // Runs `command` to completion (its stdout read to the end) and returns that stdout.
  std::string run_to_end(const std::string& command) {
    SpawnedProcess process =
        testing::started(spawn_process({.argv = {"/bin/bash", "-c", command},
                                        .cwd = dir_.path(),
                                        .environment = merge_environment(environ, {})}));
    EXPECT_GT(process.pid, 0);
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
  SpawnedProcess process = testing::started(
      spawn_process({.argv = {"/bin/bash", "-c", "sleep 1000 & echo $! > " + fifo + "; wait"},
                     .cwd = dir_.path(),
                     .environment = merge_environment(environ, {})}));
  ASSERT_GT(process.pid, 0);
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

// A bounded fork bomb: a binary tree `depth` levels deep whose every node, once it has started
// its children and written "up" to `gate`, forks /bin/true for ever, so new pids keep
// appearing until it is killed. With `own_sessions` every node starts a session of its own,
// out of reach of any group signal. Bounded by its depth, not by a ulimit (which root ignores).
std::string fork_bomb(int depth, bool own_sessions, const std::string& gate) {
  const std::string spawn =
      own_sessions ? R"(setsid bash -c 'grow "$1"' node $(($1 - 1)) &)" : R"(grow $(($1 - 1)) &)";
  return "grow() {\n"
         "  if [ \"$1\" -gt 0 ]; then " +
         spawn + " " + spawn +
         " fi\n"
         "  echo up > " +
         gate +
         "\n"
         "  while :; do /bin/true; done\n"
         "}\n"
         "export -f grow\n"
         "grow " +
         std::to_string(depth) + "\n";
}

constexpr int kBombDepth = 4;
constexpr std::size_t kBombNodes = (1u << (kBombDepth + 1)) - 1;

// The living processes whose environment holds `entry`.
std::vector<pid_t> carrying(const std::string& entry) {
  std::vector<pid_t> found;
  for_each_process([&](const ProcessInfo& info) {
    if (!has_exited(info) && environment_has(info.pid, entry)) found.push_back(info.pid);
  });
  return found;
}

class ForkBombTest : public ProcessReaperTest, public ::testing::WithParamInterface<bool> {};

TEST_P(ForkBombTest, KillProcessTreeEndsATreeThatKeepsForking) {
  const std::string gate = (dir_.path() / "gate").string();
  testing::make_fifo(gate);
  const std::string value = std::to_string(::getpid()) + "-tree";
  SpawnedProcess process = testing::started(
      spawn_process({.argv = {"/bin/bash", "-c", fork_bomb(kBombDepth, GetParam(), gate)},
                     .cwd = dir_.path(),
                     .environment = merge_environment(
                         environ, {{"NIB_TEST_BOMB", value}, {"NIB_COMMAND_ID", "bomb-tag"}})}));
  ASSERT_GT(process.pid, 0);
  ASSERT_EQ(testing::read_fifo_lines(gate, kBombNodes).size(), kBombNodes);
  kill_process_tree(process.pid, "NIB_COMMAND_ID=bomb-tag");
  EXPECT_TRUE(carrying("NIB_TEST_BOMB=" + value).empty());
  // The shell is left to its owner, dead.
  int status = 0;
  pollfd entry{process.pidfd.get(), POLLIN, 0};
  ::poll(&entry, 1, -1);
  ASSERT_EQ(reap_registered(process.pid, &status), ReapStatus::kReaped);
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
}

TEST_P(ForkBombTest, KillAllDescendantsEndsABombWhoseShellHasExited) {
  const std::string gate = (dir_.path() / "gate").string();
  testing::make_fifo(gate);
  const std::string value = std::to_string(::getpid()) + "-orphans";
  // The shell starts the bomb in the background and exits, as `:(){ :|:& };:` does.
  const std::string output =
      run_to_end("export NIB_TEST_BOMB=" + value + "\n(" + fork_bomb(kBombDepth, GetParam(), gate) +
                 ") >/dev/null 2>&1 &\n");
  EXPECT_EQ(output, "");
  ASSERT_EQ(testing::read_fifo_lines(gate, kBombNodes).size(), kBombNodes);
  kill_all_descendants();
  EXPECT_TRUE(carrying("NIB_TEST_BOMB=" + value).empty());
}

INSTANTIATE_TEST_SUITE_P(Shapes, ForkBombTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "EveryNodeInASessionOfItsOwn" : "OneProcessGroup";
                         });

TEST_F(ProcessReaperTest, ReapAdoptedZombiesLeavesRegisteredChildrenAlone) {
  SpawnedProcess process =
      testing::started(spawn_process({.argv = {"/bin/bash", "-c", "exit 7"},
                                      .cwd = dir_.path(),
                                      .environment = merge_environment(environ, {})}));
  ASSERT_GT(process.pid, 0);
  pollfd entry{process.pidfd.get(), POLLIN, 0};
  ::poll(&entry, 1, -1);  // exited, not yet reaped
  reap_adopted_zombies();
  int status = 0;
  ASSERT_EQ(reap_registered(process.pid, &status), ReapStatus::kReaped);
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

}  // namespace
}  // namespace nib::process
