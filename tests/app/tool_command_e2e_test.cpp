// End-to-end: `nib tool NAME 'JSON'` runs one call through the real prepare → gate → run path.

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <csignal>
#include <fstream>

#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

// Creates a FIFO at `path`; the command under test writes a pid into it, and reading it blocks
// until the command has reached that point (no polling, no sleeps).
void make_fifo(const std::filesystem::path& path) {
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
}

pid_t read_pid(const std::filesystem::path& fifo) {
  std::ifstream in(fifo);
  pid_t pid = 0;
  in >> pid;
  return pid;
}

// True while `pid` exists and is not a zombie.
bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close_paren = line.rfind(')');
  return close_paren != std::string::npos && line.at(close_paren + 2) != 'Z';
}

TEST(ToolCommandTest, PrintsTheModelFacingContent) {
  TempDir dir;
  dir.write("hello.txt", "hello world\n");
  const auto result = run_nib({"tool", "read", R"({"path":"hello.txt"})"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "hello world\n");
  EXPECT_TRUE(result.err.empty()) << result.err;
}

TEST(ToolCommandTest, ErrorResultExitsOne) {
  TempDir dir;
  const auto missing = run_nib({"tool", "read", R"({"path":"missing.txt"})"}, dir.path());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.out.find("missing.txt"), std::string::npos) << missing.out;

  const auto invalid = run_nib({"tool", "read", R"({"path":5})"}, dir.path());
  EXPECT_EQ(invalid.exit_code, 1);
  EXPECT_NE(invalid.out.find("invalid arguments for read"), std::string::npos) << invalid.out;

  const auto unknown = run_nib({"tool", "nope", "{}"}, dir.path());
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.out.find("unknown tool"), std::string::npos);
}

TEST(ToolCommandTest, NonZeroExitIsDataNotAnError) {
  TempDir dir;
  const auto result = run_nib({"tool", "bash", R"({"command":"echo out; exit 3"})"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find("out"), std::string::npos);
  EXPECT_NE(result.out.find('3'), std::string::npos);
}

TEST(ToolCommandTest, SigintAbortsWith130AndKillsTheCommand) {
  TempDir dir;
  make_fifo(dir.path() / "sync");
  NibProcess nib({"tool", "bash", R"({"command":"echo $$ > sync; sleep 1000"})"}, dir.path());
  const pid_t shell = read_pid(dir.path() / "sync");
  nib.send_signal(SIGINT);
  const auto result = nib.wait();
  EXPECT_EQ(result.exit_code, 130);
  EXPECT_NE(result.out.find("abort"), std::string::npos) << result.out;
  EXPECT_FALSE(running(shell));
}

TEST(ToolCommandTest, SigtermKillsEveryProcessTheCallStarted) {
  TempDir dir;
  make_fifo(dir.path() / "sync");
  NibProcess nib(
      {"tool", "bash", R"({"command":"setsid sleep 1000 & echo $! > sync; sleep 1000"})"},
      dir.path());
  const pid_t escaped = read_pid(dir.path() / "sync");
  nib.send_signal(SIGTERM);
  nib.wait();
  // The child in its own session escaped the process group, but not nib.
  EXPECT_FALSE(running(escaped));
}

TEST(ToolCommandTest, UsageErrorExitsTwo) {
  TempDir dir;
  EXPECT_EQ(run_nib({"tool"}, dir.path()).exit_code, 2);
}

}  // namespace
}  // namespace nib::testing
