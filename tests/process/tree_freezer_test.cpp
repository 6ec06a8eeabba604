// TreeFreezer: what a kill by tag does with a process whose environment cannot be read yet.

#include "process/tree_freezer.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "process/subprocess.hpp"

namespace nib::process {
namespace {

// Unique to this test process: ctest runs the tests of this file at once, and a kill by tag
// anywhere would end the other test's process.
const std::string kTagValue = "freezer-test-" + std::to_string(::getpid());
const std::string kTag = "NIB_COMMAND_TAG=" + kTagValue;

class TreeFreezerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    process_ = testing::started(spawn_process(
        {.argv = {"/bin/sleep", "1000"},
         .cwd = "/",
         .environment = merge_environment(environ, {{"NIB_COMMAND_TAG", kTagValue}})}));
    ASSERT_GT(process_.pid, 0);
  }
  void TearDown() override {
    if (process_.pid <= 0) return;
    ::kill(process_.pid, SIGKILL);
    int status = 0;
    reap_registered(process_.pid, &status);
  }
  bool dead() const {
    const auto info = read_process(process_.pid);
    return !info || has_exited(*info);
  }

  SpawnedProcess process_;
};

TEST_F(TreeFreezerTest, AnEnvironmentReadMidExecveIsReadAgainEvenWhenNothingElseIsNew) {
  // The first read of the process's environment comes back empty, as it does between execve
  // and the new program's environment; the pass finds nothing new, yet the freezer must look
  // again rather than leave a tagged process running.
  int reads = 0;
  KillScope scope{.tag = kTag, .tag_anywhere = true};
  scope.read_environment = [&](pid_t pid, std::string_view entry) {
    if (pid == process_.pid && reads++ == 0) return EnvironmentEntry::kUnknown;
    return find_environment_entry(pid, entry);
  };
  TreeFreezer freezer(std::move(scope));
  freezer.freeze();
  freezer.kill();
  EXPECT_TRUE(dead());
  EXPECT_GE(reads, 2);
}

TEST_F(TreeFreezerTest, AnEnvironmentThatStaysUnreadableEndsTheRereads) {
  // A setuid program's environment cannot be read at all: the re-reads stop, the rest goes on.
  KillScope scope{.tag = kTag, .tag_anywhere = true};
  scope.read_environment = [&](pid_t pid, std::string_view entry) {
    return pid == process_.pid ? EnvironmentEntry::kUnknown : find_environment_entry(pid, entry);
  };
  TreeFreezer freezer(std::move(scope));
  EXPECT_LE(freezer.freeze(), 8);
  freezer.kill();
  EXPECT_FALSE(dead());
}

}  // namespace
}  // namespace nib::process
