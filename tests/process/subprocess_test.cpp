#include "process/subprocess.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/syscall.h>

#include <filesystem>
#include <string>
#include <thread>

#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "support/temp_dir.hpp"

namespace nib::process {
namespace {

// Reads a pipe to its end (the spawned command is short and always exits).
std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  while (true) {
    pollfd entry{fd, POLLIN, 0};
    ::poll(&entry, 1, -1);
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) break;
    if (got > 0) text.append(buffer, static_cast<std::size_t>(got));
  }
  return text;
}

// Waits for the registered child to exit; returns its wait status.
int wait_registered(SpawnedProcess& process) {
  pollfd entry{process.pidfd.get(), POLLIN, 0};
  int status = 0;
  while (reap_registered(process.pid, &status) == ReapStatus::kRunning) ::poll(&entry, 1, 100);
  return status;
}

util::Result<SpawnedProcess> spawn_shell(const std::string& command,
                                         const std::filesystem::path& cwd,
                                         const EnvironmentOverrides& overrides = {}) {
  return spawn_process({.argv = {"/bin/bash", "-c", command},
                        .cwd = cwd,
                        .environment = merge_environment(environ, overrides)});
}

TEST(MergeEnvironment, ReplacesAndAdds) {
  const char* base[] = {"A=1", "PAGER=less", "B=x=y", nullptr};
  const auto merged = merge_environment(base, {{"PAGER", "cat"}, {"NIB", "1"}});
  EXPECT_EQ(merged, (std::vector<std::string>{"A=1", "B=x=y", "PAGER=cat", "NIB=1"}));
}

TEST(MergeEnvironment, LeavesOutWithheldNames) {
  const char* base[] = {"A=1", "OPENAI_API_KEY=sk-1", "OPENAI_API_KEY_2=x", "B=2", nullptr};
  const auto merged = merge_environment(base, {{"NIB", "1"}}, {"OPENAI_API_KEY", "MISSING"});
  EXPECT_EQ(merged, (std::vector<std::string>{"A=1", "OPENAI_API_KEY_2=x", "B=2", "NIB=1"}));
}

TEST(NonInteractiveEnvironment, HoldsTheMarkerAndTheNoPromptSettings) {
  const char* empty[] = {nullptr};
  const auto merged = merge_environment(empty, non_interactive_environment());
  for (const char* entry : {"NIB=1", "CI=1", "GIT_EDITOR=true", "GIT_TERMINAL_PROMPT=0",
                            "PAGER=cat", "GIT_PAGER=cat", "DEBIAN_FRONTEND=noninteractive"}) {
    EXPECT_NE(std::find(merged.begin(), merged.end(), entry), merged.end()) << entry;
  }
}

TEST(SpawnProcess, RunsInItsOwnSessionAndGroupInTheGivenDirectory) {
  testing::TempDir dir;
  SpawnedProcess process = testing::started(spawn_shell("pwd; cat /proc/$$/stat", dir.path()));
  ASSERT_GT(process.pid, 0);
  EXPECT_TRUE(process.pidfd.valid());
  EXPECT_EQ(::getpgid(process.pid), process.pid);
  EXPECT_EQ(::getsid(process.pid), process.pid);
  const std::string output = read_all(process.stdout_fd.get());
  EXPECT_EQ(WEXITSTATUS(wait_registered(process)), 0);
  EXPECT_EQ(output.substr(0, output.find('\n')), dir.path().string());
  const auto info = parse_proc_stat(output.substr(output.find('\n') + 1));
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->pgid, process.pid);
}

TEST(SpawnProcess, SeparatesStdoutAndStderrAndReadsStdinFromDevNull) {
  testing::TempDir dir;
  SpawnedProcess process = testing::started(
      spawn_shell("echo out; echo err >&2; readlink /proc/self/fd/0; cat", dir.path()));
  ASSERT_GT(process.pid, 0);
  EXPECT_EQ(read_all(process.stdout_fd.get()), "out\n/dev/null\n");
  EXPECT_EQ(read_all(process.stderr_fd.get()), "err\n");
  EXPECT_EQ(WEXITSTATUS(wait_registered(process)), 0);
}

TEST(SpawnProcess, GivesTheCallerTheWriteEndOfStdinWhenAsked) {
  testing::TempDir dir;
  SpawnedProcess process =
      testing::started(spawn_process({.argv = {"/bin/bash", "-c", "read line; echo \"got $line\""},
                                      .cwd = dir.path(),
                                      .environment = merge_environment(environ, {}),
                                      .pipe_stdin = true}));
  ASSERT_TRUE(process.stdin_fd.valid());
  ASSERT_EQ(::write(process.stdin_fd.get(), "hello\n", 6), 6);
  process.stdin_fd.reset();
  EXPECT_EQ(read_all(process.stdout_fd.get()), "got hello\n");
  EXPECT_EQ(WEXITSTATUS(wait_registered(process)), 0);
}

TEST(SpawnProcess, DoesNotLeakDescriptorsWithoutCloseOnExec) {
  testing::TempDir dir;
  const int leaked = ::open("/dev/null", O_RDONLY);  // deliberately without O_CLOEXEC
  ASSERT_GE(leaked, 0);
  const std::string probe = "/proc/$$/fd/" + std::to_string(leaked);
  SpawnedProcess process = testing::started(
      spawn_shell("if [ -e " + probe + " ]; then echo open; else echo closed; fi", dir.path()));
  ::close(leaked);
  ASSERT_GT(process.pid, 0);
  EXPECT_EQ(read_all(process.stdout_fd.get()), "closed\n");
  wait_registered(process);
}

TEST(SpawnProcess, ResetsIgnoredSignalsSoPipelinesBehave) {
  testing::TempDir dir;
  struct sigaction ignore {};
  struct sigaction previous {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  SpawnedProcess process =
      testing::started(spawn_shell("yes | head -1; echo ${PIPESTATUS[0]}", dir.path()));
  ::sigaction(SIGPIPE, &previous, nullptr);
  ASSERT_GT(process.pid, 0);
  EXPECT_EQ(read_all(process.stdout_fd.get()), "y\n141\n");  // 128 + SIGPIPE
  wait_registered(process);
}

TEST(SpawnProcess, AppliesEnvironmentOverrides) {
  testing::TempDir dir;
  SpawnedProcess process = testing::started(
      spawn_shell("echo \"$NIB $PAGER\"", dir.path(), {{"NIB", "1"}, {"PAGER", "cat"}}));
  ASSERT_GT(process.pid, 0);
  EXPECT_EQ(read_all(process.stdout_fd.get()), "1 cat\n");
  wait_registered(process);
}

TEST(SpawnProcess, DiesWithTheThreadThatSpawnedIt) {
  testing::TempDir dir;
  SpawnedProcess process;
  std::thread([&] {
    process = testing::started(spawn_shell("exec sleep 1000", dir.path()));
  }).join();
  ASSERT_GT(process.pid, 0);
  const int status = wait_registered(process);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
}

TEST(SpawnProcess, OutlivesItsThreadWhenAsked) {
  testing::TempDir dir;
  const auto gate = dir.path() / "gate";
  testing::make_fifo(gate);
  SpawnedProcess process;
  pid_t thread_id = 0;
  std::thread([&] {
    thread_id = static_cast<pid_t>(::syscall(SYS_gettid));
    process = testing::started(
        spawn_process({.argv = {"/bin/bash", "-c", "read line < gate; echo \"got $line\""},
                       .cwd = dir.path(),
                       .environment = merge_environment(environ, {}),
                       .die_with_spawning_thread = false}));
  }).join();
  ASSERT_GT(process.pid, 0);
  // The kernel sends a parent-death signal late in the thread's exit, after join returns but
  // before the thread leaves /proc.
  const auto task = "/proc/self/task/" + std::to_string(thread_id);
  while (std::filesystem::exists(task)) std::this_thread::yield();
  const int fd = ::open(gate.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "x\n", 2), 2);
  ::close(fd);
  EXPECT_EQ(read_all(process.stdout_fd.get()), "got x\n");
  EXPECT_EQ(WEXITSTATUS(wait_registered(process)), 0);
}

TEST(SpawnProcess, AProgramThatCannotRunIsAnError) {
  testing::TempDir dir;
  const auto process =
      spawn_process({.argv = {"/nonexistent/program"}, .cwd = dir.path(), .environment = {}});
  EXPECT_FALSE(process.ok());
  EXPECT_EQ(process.error(), "cannot run the program: No such file or directory");
}

TEST(SpawnProcess, MissingDirectoryIsAnError) {
  testing::TempDir dir;
  const auto process = spawn_shell("true", dir.path() / "missing");
  EXPECT_FALSE(process.ok());
  EXPECT_NE(process.error().find("No such file"), std::string::npos) << process.error();
}

}  // namespace
}  // namespace nib::process
