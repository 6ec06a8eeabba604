// End-to-end: `nib tool NAME 'JSON'` runs one call through the real prepare → gate → run path.

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <csignal>
#include <fstream>

#include "support/host_pid.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

// Creates a FIFO at `path`; the command under test writes a pid into it, and reading it blocks
// until the command has reached that point (no polling, no sleeps).
void make_pid_fifo(const std::filesystem::path& path) {
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

TEST(ToolCommandTest, WebFetchIsABuiltInToolThatRefusesThisMachine) {
  TempDir dir;
  const auto result =
      run_nib({"tool", "web_fetch", R"({"url":"http://127.0.0.1:9/"})"}, dir.path());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.out.find("127.0.0.1 is a loopback address"), std::string::npos) << result.out;
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

// A 2x2 RGB PNG.
const std::string kTinyPng(
    "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x02"
    "\x00\x00\x00\x02\x08\x02\x00\x00\x00\xfd\xd4\x9a\x73\x00\x00\x00\x11\x49\x44\x41"
    "\x54\x78\x9c\x63\xf8\xcf\xc0\x00\x44\x0c\x60\xf2\x3f\x00\x1b\xf2\x03\xfd\xf3\xe7"
    "\x4b\xb1\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82",
    74);

// Images are decoded by the image module, which nib loads only when an image is read.
TEST(ToolCommandTest, ReadsAnImageThroughTheImageModule) {
  TempDir dir;
  dir.write("dot.png", kTinyPng);
  const auto result = run_nib({"tool", "read", R"({"path":"dot.png"})"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("Read image file [image/png] (2x2)"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("[image mime=image/png bytes=74]"), std::string::npos) << result.out;
}

TEST(ToolCommandTest, AMissingImageModuleIsExplainedNotFatal) {
  TempDir dir;
  dir.write("dot.png", kTinyPng);
  const auto result = run_nib({"tool", "read", R"({"path":"dot.png"})"}, dir.path(),
                              {{"NIB_IMAGE_MODULE", (dir.path() / "none.so").string()}});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.out.find("omitted: nib's image support is not installed"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("none.so"), std::string::npos) << result.out;
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
  make_pid_fifo(dir.path() / "sync");
  NibProcess nib({"tool", "bash", R"({"command":"echo $$ > sync; sleep 1000"})"}, dir.path());
  // The sandbox's $$ is not the host's pid.
  const pid_t shell = testing::host_pid_in(dir.path(), read_pid(dir.path() / "sync"));
  nib.send_signal(SIGINT);
  const auto result = nib.wait();
  EXPECT_EQ(result.exit_code, 130);
  EXPECT_NE(result.out.find("abort"), std::string::npos) << result.out;
  EXPECT_FALSE(running(shell));
}

TEST(ToolCommandTest, SigtermKillsEveryProcessTheCallStarted) {
  TempDir dir;
  make_pid_fifo(dir.path() / "sync");
  NibProcess nib(
      {"tool", "bash", R"({"command":"setsid sleep 1000 & echo $! > sync; sleep 1000"})"},
      dir.path());
  const pid_t escaped = testing::host_pid_in(dir.path(), read_pid(dir.path() / "sync"));
  nib.send_signal(SIGTERM);
  nib.wait();
  // The child in its own session escaped the process group, but not nib.
  EXPECT_FALSE(running(escaped));
}

TEST(ToolCommandTest, CommandsRunInTheSandboxUnlessTheSettingsTurnItOff) {
  TempDir dir;
  dir.write(".nib/settings.json", "{}");
  const std::string plant = R"({"command":"echo planted > .nib/planted"})";
  run_nib({"tool", "bash", plant}, dir.path());
  EXPECT_FALSE(std::filesystem::exists(dir.path() / ".nib/planted")) << "read-only inside";
  dir.write(".nib/settings.json", R"({"sandbox": {"enabled": false}})");
  EXPECT_EQ(run_nib({"tool", "bash", plant}, dir.path()).exit_code, 0);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / ".nib/planted"));
}

// Flags before the subcommand are its own: not a prompt's, nor refused.
TEST(ToolCommandTest, FlagsBeforeToolApplyToTheCall) {
  TempDir dir;
  dir.write(".nib/settings.json", "{}");
  const std::string plant = R"({"command":"echo planted > .nib/planted"})";
  const auto result = run_nib({"--no-sandbox", "tool", "bash", plant}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / ".nib/planted")) << "outside the sandbox";
  // read-only refuses what would change the tree, with nobody to ask.
  const auto refused = run_nib(
      {"--permission-mode", "read-only", "tool", "write", R"({"path":"w.txt","content":"x"})"},
      dir.path());
  EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
  EXPECT_NE(refused.out.find("read-only"), std::string::npos) << refused.out;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "w.txt"));
}

TEST(ToolCommandTest, ABrokenSandboxSectionNamesTheFileAndExitsTwo) {
  TempDir dir;
  dir.write(".nib/settings.json", R"({"sandbox": {"network": "yes"}})");
  const auto result = run_nib({"tool", "bash", R"({"command":"true"})"}, dir.path());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find(".nib/settings.json: sandbox.network: must be true or false"),
            std::string::npos)
      << result.err;
}

TEST(ToolCommandTest, UsageErrorExitsTwo) {
  TempDir dir;
  const auto result = run_nib({"tool"}, dir.path());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("Run 'nib tool --help' for usage."), std::string::npos) << result.err;
}

}  // namespace
}  // namespace nib::testing
