#include "tools/bash.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <thread>

#include "process/command_registry.hpp"
#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "support/scoped_places.hpp"
#include "support/temp_dir.hpp"
#include "tools/fixture_logs.hpp"
#include "tools/limits.hpp"
#include "tools/sandbox_modes.hpp"
#include "util/byte_size.hpp"

namespace nib::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

// The log path a truncation note points at: the word that ends in ".log".
std::filesystem::path log_path_in(const std::string& text) {
  const std::size_t end = text.find(".log");
  if (end == std::string::npos) return {};
  const std::size_t start = text.rfind(' ', end) + 1;
  return text.substr(start, end + 4 - start);
}

long max_rss_kib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// Every test runs unconfined and in the sandbox (sandbox_modes.hpp).
class BashToolTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { ASSERT_TRUE(process::become_subreaper()); }
  // Tests stay independent: nothing one starts survives into the next.
  void TearDown() override {
    process::kill_all_descendants();
    process::forget_all_commands();
  }

  core::ToolOutput run(const std::string& command, std::optional<double> timeout = std::nullopt,
                       std::stop_token stop = {}) {
    nlohmann::json args = {{"command", command}};
    if (timeout) args["timeout"] = *timeout;
    return tool_->execute(args, std::move(stop), {"call-1", dir_.path()});
  }

  testing::TempDir dir_;
  testing::TempDir runtime_;
  testing::TempDir cache_;  // the sandbox's private cache
  testing::ScopedPlaces runtime_places_{&util::UserPlaces::runtime_dir, runtime_.path()};
  testing::TempDir logs_;  // the process's temp directory: only the private logs go there
  testing::ScopedPlaces temp_places_{&util::UserPlaces::temp_dir, logs_.path()};
  std::shared_ptr<const process::CommandLauncher> sandbox_ =
      sandboxed() ? testing::test_sandbox(dir_.path(), cache_.path()) : nullptr;
  core::ToolPtr tool_ = make_bash_tool({.launcher = sandbox_});

  bool sandboxed() const { return GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(Confinement, BashToolTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Sandboxed" : "Unconfined";
                         });

TEST_P(BashToolTest, SpecDescribesTheRealLimits) {
  const core::ToolSpec& spec = tool_->spec();
  EXPECT_EQ(spec.name, "bash");
  EXPECT_FALSE(spec.concurrency_safe);
  EXPECT_THAT(spec.description, HasSubstr(std::to_string(process::kMaxOutputLines) + " lines"));
  EXPECT_THAT(spec.description, HasSubstr(std::to_string(process::kMaxOutputBytes / 1024) + " KB"));
  EXPECT_THAT(spec.description,
              HasSubstr(std::to_string(process::kMaxLogBytes / (1024 * 1024)) + " MiB"));
  EXPECT_THAT(spec.description, HasSubstr("fresh shell"));
  EXPECT_THAT(spec.description, HasSubstr("There is none by default"));  // no default timeout
  EXPECT_THAT(spec.description, HasSubstr("read the log with offset (a line number) and limit, or "
                                          "grep it"));
  EXPECT_EQ(spec.parameters["required"], nlohmann::json::array({"command"}));
  EXPECT_EQ(spec.parameters["properties"]["timeout"]["exclusiveMinimum"], 0);
}

TEST_P(BashToolTest, ExitCodeZero) {
  const core::ToolOutput output = run("echo hi");
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.exit_code, 0);
  EXPECT_EQ(output.output, "hi\n");
}

TEST_P(BashToolTest, NonZeroExitCodeIsDataNotAnError) {
  const core::ToolOutput output = run("echo before; exit 3");
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.exit_code, 3);
  EXPECT_EQ(output.output, "before\n[exit code 3]\n");
}

TEST_P(BashToolTest, SeparatesStdoutAndStderr) {
  const core::ToolOutput output = run("echo out1; echo err1 >&2; echo out2; echo err2 >&2");
  EXPECT_EQ(output.output, "[stdout]\nout1\nout2\n[stderr]\nerr1\nerr2\n");
}

TEST_P(BashToolTest, RunsInTheContextDirectory) {
  EXPECT_EQ(run("pwd").output, dir_.path().string() + "\n");
}

TEST_P(BashToolTest, EnvironmentIsMarkedAndNonInteractive) {
  const core::ToolOutput output =
      run("echo \"$NIB $CI $PAGER $GIT_PAGER $GIT_EDITOR $GIT_TERMINAL_PROMPT $DEBIAN_FRONTEND\"");
  EXPECT_EQ(output.output, "1 1 cat cat true 0 noninteractive\n");
}

TEST_P(BashToolTest, StdinIsDevNull) {
  EXPECT_EQ(run("cat; echo done").output, "done\n");
  EXPECT_EQ(run("read x; echo \"read=$? x=[$x]\"").output, "read=1 x=[]\n");
}

TEST_P(BashToolTest, HasNoControllingTerminal) {
  EXPECT_EQ(run("if { : </dev/tty; } 2>/dev/null; then echo tty; else echo none; fi").output,
            "none\n");
}

TEST_P(BashToolTest, ACommandHoldingANulIsRefusedBeforeItRuns) {
  std::filesystem::create_directories(dir_.path() / "DIR/sub");
  const core::ToolOutput output = run(std::string("rm -rf DIR\0/sub", 16));
  EXPECT_TRUE(output.is_error);
  EXPECT_EQ(output.output,
            "Error: command holds a NUL character (\\u0000) at byte 10. File names, paths and "
            "commands end at a NUL for the operating system, so it would stand for only "
            "\"rm -rf DIR\". Nothing was done; remove the NUL and retry.");
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "DIR/sub"));
}

TEST_P(BashToolTest, InvalidUtf8IsReplaced) {
  EXPECT_EQ(run("printf 'a\\xffb\\n'").output,
            "a\xEF\xBF\xBD"
            "b\n");
}

TEST_P(BashToolTest, AnsiEscapesAreStripped) {
  EXPECT_EQ(run("printf '\\033[1;31mred\\033[0m \\033]0;title\\007plain\\n'").output,
            "red plain\n");
}

TEST_P(BashToolTest, DeathBySignalIsANamedError) {
  const core::ToolOutput segv = run("echo last words; kill -SEGV $$");
  if (sandboxed()) {  // bubblewrap's pid 1 reports the shell's death as 128+N
    EXPECT_EQ(segv.exit_code, 128 + SIGSEGV);
    EXPECT_THAT(segv.output, HasSubstr("last words"));
    EXPECT_EQ(run("kill -9 $$").exit_code, 128 + SIGKILL);
    return;
  }
  EXPECT_TRUE(segv.is_error);
  EXPECT_FALSE(segv.exit_code.has_value());
  EXPECT_THAT(segv.output, HasSubstr("SIGSEGV"));
  EXPECT_THAT(segv.output, HasSubstr("last words"));
  const core::ToolOutput killed = run("kill -9 $$");
  EXPECT_TRUE(killed.is_error);
  EXPECT_THAT(killed.output, HasSubstr("SIGKILL"));
}

TEST_P(BashToolTest, MissingWorkingDirectoryIsAnError) {
  const core::ToolOutput output =
      tool_->execute({{"command", "true"}}, {}, {"call-1", dir_.path() / "gone"});
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("does not exist"));
}

TEST_P(BashToolTest, EmptyCommandIsAnError) {
  EXPECT_TRUE(run("  ").is_error);
}

TEST_P(BashToolTest, TimeoutKillsTheGroupAndKeepsPartialOutput) {
  const core::ToolOutput output = run("echo $$; echo partial; sleep 1000", 1);
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, StartsWith("Error: command timed out after 1 s"));
  EXPECT_THAT(output.output, HasSubstr("partial\n"));
  const std::string after_header = output.output.substr(output.output.find('\n') + 1);
  EXPECT_FALSE(testing::descendant_running("sleep 1000"));
  if (sandboxed()) return;  // the pid printed is the sandbox's own
  const pid_t pgid = std::stoi(after_header);
  EXPECT_TRUE(testing::process_gone(-pgid));
  EXPECT_TRUE(testing::process_gone(pgid));
}

TEST_P(BashToolTest, TimeoutKillsProcessesThatLeftTheGroup) {
  const auto escaped_file = dir_.path() / "escaped.pid";
  const auto daemon_file = dir_.path() / "daemon.pid";
  // One child starts its own session; another double-forks so that its parent is gone too.
  const core::ToolOutput output =
      run("setsid sleep 1000 >/dev/null 2>&1 & echo $! > escaped.pid; "
          "(setsid sleep 1000 >/dev/null 2>&1 & echo $! > daemon.pid); sleep 1000",
          1);
  EXPECT_TRUE(output.is_error);
  EXPECT_FALSE(testing::descendant_running("sleep 1000"));
  if (sandboxed()) return;  // the pids written are the sandbox's own
  const pid_t escaped = std::stoi(read_file(escaped_file));
  const pid_t daemon = std::stoi(read_file(daemon_file));
  EXPECT_TRUE(testing::process_gone(escaped));
  EXPECT_TRUE(testing::process_gone(daemon));
}

TEST_P(BashToolTest, AbortThroughTheStopTokenKillsTheCommand) {
  const auto gate = dir_.path() / "gate";
  testing::make_fifo(gate);
  std::stop_source stop;
  auto call = std::async(std::launch::async, [&] {
    return run("echo ready; setsid sleep 1000 >/dev/null 2>&1 & echo \"$$ $!\" > gate; sleep 1000",
               std::nullopt, stop.get_token());
  });
  std::istringstream pids(testing::read_fifo_line(gate));
  pid_t shell = 0;
  pid_t escaped = 0;
  pids >> shell >> escaped;
  shell = testing::host_pid(shell, sandboxed());
  escaped = testing::host_pid(escaped, sandboxed());
  ASSERT_GT(shell, 0);
  ASSERT_GT(escaped, 0);
  stop.request_stop();
  const core::ToolOutput output = call.get();
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("aborted"));
  EXPECT_THAT(output.output, HasSubstr("ready\n"));
  EXPECT_TRUE(testing::process_gone(-shell));
  EXPECT_TRUE(testing::process_gone(escaped));
}

TEST_P(BashToolTest, BackgroundChildHoldingStdoutDoesNotHoldTheCall) {
  const core::ToolOutput output = run("sleep 30 & echo \"started $!\"");
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.exit_code, 0);
  ASSERT_THAT(output.output, StartsWith("started "));
  const pid_t background = testing::host_pid(std::stoi(output.output.substr(8)), sandboxed());
  EXPECT_FALSE(testing::process_gone(background));  // left running, as asked
  process::kill_all_descendants();
  EXPECT_TRUE(testing::process_gone(background));
}

TEST_P(BashToolTest, EscapedBackgroundChildIsKilledByKillAllDescendants) {
  const core::ToolOutput output = run("setsid sleep 1000 & echo $!");
  EXPECT_FALSE(output.is_error);
  const pid_t escaped = testing::host_pid(std::stoi(output.output), sandboxed());
  EXPECT_FALSE(testing::process_gone(escaped));
  process::kill_all_descendants();
  EXPECT_TRUE(testing::process_gone(escaped));
}

TEST_P(BashToolTest, ChattyBackgroundChildIsCutOffAfterTheDrainCap) {
  const core::ToolOutput output = run("echo started; (while :; do echo tick; sleep 0.01; done) &");
  EXPECT_FALSE(output.is_error);
  EXPECT_THAT(output.output, StartsWith("started\n"));
}

TEST_P(BashToolTest, StderrFloodIsBoundedAndLogged) {
  const long rss_before = max_rss_kib();
  const std::uint64_t total = 50ull * 1024 * 1024;
  const core::ToolOutput output =
      run("yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c " + std::to_string(total) + " >&2");
  EXPECT_LT(max_rss_kib() - rss_before, 32 * 1024);
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.exit_code, 0);
  EXPECT_LT(output.output.size(), 8000u);
  EXPECT_THAT(output.output, StartsWith("[stderr]\n0123456789abcdefghijklmnopqrstuvwxyz\n"));
  EXPECT_THAT(output.output, HasSubstr("[stderr truncated: "));
  EXPECT_THAT(output.output, HasSubstr("(" + util::format_count(total) + " bytes) in all"));
  EXPECT_THAT(output.output, HasSubstr("A log keeps at most the first 10,485,760 bytes."));
  const std::filesystem::path log = log_path_in(output.output);
  ASSERT_TRUE(std::filesystem::exists(log)) << output.output;
  EXPECT_EQ(log.parent_path().parent_path(), logs_.path());
  struct stat info {};
  ASSERT_EQ(::stat(log.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  const std::string content = read_file(log);
  ASSERT_GT(content.size(), process::kMaxLogBytes);
  EXPECT_EQ(content.substr(0, 37), "0123456789abcdefghijklmnopqrstuvwxyz\n");
  EXPECT_EQ(content.substr(process::kMaxLogBytes),
            "\n[nib: this log holds only the first 10485760 bytes of " + std::to_string(total) +
                "; the rest was not kept]\n");
}

TEST_P(BashToolTest, TwoMillionLinesShowTheHeadAndTailAndPointAtTheLog) {
  const core::ToolOutput output = run("seq 1 2000000");
  EXPECT_FALSE(output.is_error);
  EXPECT_THAT(output.output, StartsWith("1\n2\n3\n"));
  EXPECT_THAT(output.output,
              HasSubstr("\n30\n… 1,999,940 lines left out (lines 31–1,999,970) …\n1999971\n"));
  EXPECT_THAT(output.output, HasSubstr("\n2000000\n[stdout truncated: 2,000,000 lines"));
  EXPECT_THAT(output.output, Not(HasSubstr("1999970")));
  EXPECT_THAT(output.output, HasSubstr("shown: lines 1–30 and lines 1,999,971–2,000,000."));
  const std::filesystem::path log = log_path_in(output.output);
  EXPECT_THAT(output.output, HasSubstr(log.string() + " (read it with offset and limit, or grep "
                                                      "it)."));
  EXPECT_THAT(output.output, HasSubstr("Past the log's end, only the lines shown here were kept."));
  EXPECT_THAT(read_file(log), StartsWith("1\n2\n3\n"));
  EXPECT_LT(output.output.size(), 8000u);
}

// The case of issue 12, through the real tool.
TEST_P(BashToolTest, SixtyThousandLineTestLogKeepsItsFailures) {
  const std::string log = testing::generated_pytest_log(60000, {20000, 30000, 40000});
  std::ofstream(dir_.path() / "pytest.log", std::ios::binary) << log;
  const core::ToolOutput output = run("cat pytest.log; exit 1");
  EXPECT_EQ(output.exit_code, 1);
  EXPECT_LT(output.output.size(), 8000u);
  EXPECT_THAT(output.output, StartsWith("============================= test session starts"));
  EXPECT_THAT(output.output, HasSubstr("\n20000: tests/test_mod_0200.py::test_case_20000 FAILED"));
  EXPECT_THAT(output.output, HasSubstr("\n30000: tests/test_mod_0300.py::test_case_30000 FAILED"));
  EXPECT_THAT(output.output, HasSubstr("\n40000: tests/test_mod_0400.py::test_case_40000 FAILED"));
  EXPECT_THAT(output.output, HasSubstr("3 failed, 59992 passed in 312.45s"));
  const std::filesystem::path saved = log_path_in(output.output);
  EXPECT_EQ(read_file(saved), log);
}

TEST_P(BashToolTest, GigabyteOfStdoutKeepsMemoryBounded) {
  const long rss_before = max_rss_kib();
  // One writer with big blocks, so the test measures nib rather than a pipeline of tools.
  const core::ToolOutput output = run("dd if=/dev/zero bs=1000000 count=1000 status=none");
  EXPECT_LT(max_rss_kib() - rss_before, 32 * 1024);
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.output,
            "[a long line with nothing printable]\n"
            "[stdout truncated: 1 line (1,000,000,000 bytes) in all; shown: line 1. No line looks "
            "like a failure. The first 10,485,760 bytes are saved in " +
                log_path_in(output.output).string() +
                " (read it with offset and limit, or grep it). A log keeps at most the first "
                "10,485,760 bytes.]\n");
}

TEST_P(BashToolTest, WithheldVariablesDoNotReachTheCommand) {
  testing::ScopedEnv key("NIB_TEST_API_KEY", "sk-secret");
  const core::ToolPtr tool =
      make_bash_tool({.withheld_environment = {"NIB_TEST_API_KEY"}, .launcher = sandbox_});
  const core::ToolOutput output = tool->execute({{"command", "env"}}, {}, {"call-1", dir_.path()});
  EXPECT_THAT(output.output, Not(HasSubstr("sk-secret")));
  EXPECT_THAT(output.output, HasSubstr("NIB=1"));
  EXPECT_EQ(run("echo $NIB_TEST_API_KEY").output, "sk-secret\n") << "only where withheld";
}

TEST_P(BashToolTest, ACommandThatStopsItselfIsResumedAndSaysSo) {
  const core::ToolOutput output = run("kill -STOP $$; echo resumed");
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.exit_code, 0);
  EXPECT_THAT(output.output, StartsWith("resumed\n"));
  EXPECT_THAT(output.output, HasSubstr("[note: a process of the command stopped"));
  EXPECT_THAT(output.output, HasSubstr("SIGCONT"));
}

TEST_P(BashToolTest, ShortOutputCreatesNoLog) {
  run("seq 1 100");
  EXPECT_TRUE(std::filesystem::is_empty(logs_.path()) ||
              std::filesystem::is_empty(logs_.path() / ("nib-" + std::to_string(::geteuid()))));
}

}  // namespace
}  // namespace nib::tools

namespace nib::tools {
namespace {

// What a running command shows live (core::ToolOutputEvent): its output as it comes, to the run
// that made the call, bounded whatever the command prints.
TEST_P(BashToolTest, OutputReachesTheRunAsItComesUpToTheLiveLimit) {
  std::vector<std::string> pieces;
  core::ToolContext context{"call-1", dir_.path()};
  context.report = [&pieces](core::Event event) {
    const auto* output = std::get_if<core::ToolOutputEvent>(&event);
    ASSERT_NE(output, nullptr);
    EXPECT_EQ(output->id, "call-1");
    pieces.push_back(output->text);
  };
  const core::ToolOutput small =
      tool_->execute({{"command", "echo one; echo two >&2"}}, {}, context);
  EXPECT_FALSE(small.is_error) << small.output;
  std::string shown;
  for (const std::string& piece : pieces) shown += piece;
  EXPECT_EQ(shown.size(), 8u) << shown;
  EXPECT_NE(shown.find("one\n"), std::string::npos) << shown;
  EXPECT_NE(shown.find("two\n"), std::string::npos) << shown;

  pieces.clear();
  const core::ToolOutput flood =
      tool_->execute({{"command", "head -c 3000000 /dev/zero | tr '\\0' x"}}, {}, context);
  EXPECT_FALSE(flood.is_error) << flood.output;
  std::size_t total = 0;
  for (const std::string& piece : pieces) total += piece.size();
  EXPECT_EQ(total, kMaxLiveOutputBytes);
}

}  // namespace
}  // namespace nib::tools
