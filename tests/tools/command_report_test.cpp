#include "tools/command_report.hpp"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <set>
#include <string>

#include "support/temp_dir.hpp"
#include "tools/fixture_logs.hpp"
#include "util/byte_size.hpp"

namespace nib::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class CommandReportTest : public ::testing::Test {
 protected:
  process::LogOpener opener(std::string name) {
    return [this, name] {
      const auto path = dir_.path() / name;
      return process::LogFile{
          process::UniqueFd(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600)), path};
    };
  }
  process::CommandResult result(process::CommandEnd end, std::string out, std::string err) {
    process::CommandResult made{.stdout_capture = process::OutputCapture(opener("out.log")),
                                .stderr_capture = process::OutputCapture(opener("err.log"))};
    made.end = end;
    made.pid = 1234;
    made.stdout_capture.append(out);
    made.stderr_capture.append(err);
    return made;
  }
  static std::string numbered_lines(int first, int last) {
    std::string text;
    for (int i = first; i <= last; ++i) text += "line " + std::to_string(i) + "\n";
    return text;
  }

  testing::TempDir dir_;
};

TEST_F(CommandReportTest, SuccessShowsStdoutAlone) {
  process::CommandResult done = result(process::CommandEnd::kExited, "hello\n", "");
  const core::ToolOutput output = report_command(done, {});
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.exit_code, 0);
  EXPECT_EQ(output.output, "hello\n");
}

TEST_F(CommandReportTest, NoOutputSaysSo) {
  process::CommandResult done = result(process::CommandEnd::kExited, "", "");
  EXPECT_EQ(report_command(done, {}).output, "(no output)\n");
  process::CommandResult invisible =
      result(process::CommandEnd::kExited, std::string("\0\x1b[0m", 5), "");
  EXPECT_EQ(report_command(invisible, {}).output, "(no printable output)\n");
}

TEST_F(CommandReportTest, NonZeroExitIsDataNotAnError) {
  process::CommandResult done = result(process::CommandEnd::kExited, "out\n", "err\n");
  done.exit_code = 3;
  const core::ToolOutput output = report_command(done, {});
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.exit_code, 3);
  EXPECT_EQ(output.output, "[stdout]\nout\n[stderr]\nerr\n[exit code 3]\n");
}

TEST_F(CommandReportTest, ShellSignalExitCodeGetsAHint) {
  process::CommandResult done = result(process::CommandEnd::kExited, "", "");
  done.exit_code = 139;
  EXPECT_THAT(report_command(done, {}).output,
              HasSubstr("[exit code 139: usually means a process was killed by SIGSEGV"));
}

TEST_F(CommandReportTest, StderrOnlyIsLabelled) {
  process::CommandResult done = result(process::CommandEnd::kExited, "", "oops");
  EXPECT_EQ(report_command(done, {}).output, "[stderr]\noops\n");
}

TEST_F(CommandReportTest, TimeoutIsAnErrorWithTheOutputSoFar) {
  process::CommandResult done = result(process::CommandEnd::kTimedOut, "partial\n", "");
  const core::ToolOutput output = report_command(done, {.timeout_seconds = 1.5});
  EXPECT_TRUE(output.is_error);
  EXPECT_FALSE(output.exit_code.has_value());
  EXPECT_THAT(output.output, HasSubstr("timed out after 1.5 s"));
  EXPECT_THAT(output.output, HasSubstr("partial\n"));
}

TEST_F(CommandReportTest, AbortIsAnError) {
  process::CommandResult done = result(process::CommandEnd::kAborted, "so far\n", "");
  const core::ToolOutput output = report_command(done, {});
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("aborted"));
  EXPECT_THAT(output.output, HasSubstr("so far\n"));
}

TEST_F(CommandReportTest, DeathBySignalIsNamed) {
  process::CommandResult done = result(process::CommandEnd::kSignaled, "before\n", "");
  done.signal = SIGSEGV;
  done.core_dumped = true;
  const core::ToolOutput output = report_command(done, {});
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("killed by SIGSEGV (Segmentation fault), core dumped"));
  EXPECT_THAT(output.output, HasSubstr("before\n"));
}

TEST_F(CommandReportTest, NotStartedIsAnError) {
  process::CommandResult failed = result(process::CommandEnd::kNotStarted, "", "");
  failed.pid = -1;
  failed.error = "No such file or directory";
  const core::ToolOutput output = report_command(failed, {});
  EXPECT_TRUE(output.is_error);
  EXPECT_EQ(output.output, "Error: could not start the command: No such file or directory.");
}

TEST_F(CommandReportTest, SanitisesWhatItShows) {
  process::CommandResult done =
      result(process::CommandEnd::kExited, "\x1b[32mok\x1b[0m \xff\n", "");
  EXPECT_EQ(report_command(done, {}).output, "ok \xEF\xBF\xBD\n");
}

TEST_F(CommandReportTest, LongStdoutShowsItsHeadAndTailAndPointsAtTheLog) {
  process::CommandResult done = result(process::CommandEnd::kExited, numbered_lines(1, 3000), "");
  const core::ToolOutput output = report_command(done, {});
  const auto log = dir_.path() / "out.log";
  const std::size_t bytes = numbered_lines(1, 3000).size();
  EXPECT_EQ(output.output, numbered_lines(1, 30) + "… 2,940 lines left out (lines 31–2,970) …\n" +
                               numbered_lines(2971, 3000) + "[stdout truncated: 3,000 lines (" +
                               util::format_count(bytes) +
                               " bytes) in all; shown: lines 1–30 and lines 2,971–3,000. No "
                               "line looks like a failure. Full stdout: " +
                               log.string() + " (read it with offset and limit, or grep it).]\n");
  EXPECT_EQ(std::filesystem::file_size(log), bytes);
}

TEST_F(CommandReportTest, BothStreamsShareOneBudget) {
  process::CommandResult done =
      result(process::CommandEnd::kExited, numbered_lines(1, 3000), "e1\ne2\n");
  const std::string text = report_command(done, {}).output;
  // stderr keeps its two lines; stdout, over the rest of the 2000-line budget, is digested.
  EXPECT_THAT(text, HasSubstr("[stderr]\ne1\ne2\n"));
  EXPECT_THAT(text, ::testing::StartsWith("[stdout]\nline 1\n"));
  EXPECT_THAT(text, HasSubstr("shown: lines 1–30 and lines 2,971–3,000."));
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "err.log"));
}

TEST_F(CommandReportTest, TwoLongStreamsShareTheDigestBudget) {
  std::string err;
  for (int i = 1; i <= 5000; ++i) err += "warning " + std::to_string(i) + "\n";
  process::CommandResult done = result(process::CommandEnd::kExited, numbered_lines(1, 3000), err);
  const std::string text = report_command(done, {}).output;
  EXPECT_THAT(text, HasSubstr("[stdout truncated: 3,000 lines"));
  EXPECT_THAT(text, HasSubstr("[stderr truncated: 5,000 lines"));
  EXPECT_THAT(text, HasSubstr("\nline 3000\n"));
  EXPECT_THAT(text, HasSubstr("\nwarning 5000\n"));
  EXPECT_LT(text.size(), 8000u);
}

TEST_F(CommandReportTest, OverlongSingleLineShowsItsStartAndEnd) {
  process::CommandResult done =
      result(process::CommandEnd::kExited, "START" + std::string(200 * 1024, 'x') + "END", "");
  const std::string text = report_command(done, {}).output;
  EXPECT_THAT(text, ::testing::StartsWith("STARTxxx"));
  EXPECT_THAT(text, HasSubstr("xxx…[line cut]…xxx"));
  EXPECT_THAT(text, HasSubstr("xxxEND\n"));
  EXPECT_THAT(text, HasSubstr("[stdout truncated: 1 line (204,808 bytes) in all; shown: line 1."));
  EXPECT_LT(text.size(), 8000u);
}

// The case of issue 12: a 60,000-line test log with three failures in the middle and the
// summary on its last line.
TEST_F(CommandReportTest, SixtyThousandLineLogKeepsItsFailuresInUnder8000Characters) {
  const std::string log = testing::generated_pytest_log(60000, {20000, 30000, 40000});
  process::CommandResult done = result(process::CommandEnd::kExited, log, "");
  done.exit_code = 1;
  const std::string text = report_command(done, {}).output;
  EXPECT_LT(text.size(), 8000u) << text;
  EXPECT_THAT(text,
              ::testing::StartsWith("============================= test session starts ====="));
  EXPECT_THAT(text, HasSubstr("\ncollected 59995 items\n"));
  for (const char* failure : {"20000: tests/test_mod_0200.py::test_case_20000 FAILED [ 33%]\n",
                              "30000: tests/test_mod_0300.py::test_case_30000 FAILED [ 50%]\n",
                              "40000: tests/test_mod_0400.py::test_case_40000 FAILED [ 66%]\n"}) {
    EXPECT_THAT(text, HasSubstr(failure));
  }
  EXPECT_THAT(text, HasSubstr("19999- tests/test_mod_0199.py::test_case_19999 PASSED [ 33%]\n"));
  EXPECT_THAT(text, HasSubstr("20002- tests/test_mod_0200.py::test_case_20002 PASSED [ 33%]\n"
                              "… 9,996 lines left out (lines 20,003–29,998) …\n"));
  EXPECT_THAT(text, HasSubstr("\n================= 3 failed, 59992 passed in 312.45s "
                              "=================\n[stdout truncated: 60,000 lines"));
  EXPECT_THAT(text, HasSubstr("3 excerpts around lines that look like failures"));
  EXPECT_THAT(text, HasSubstr("Full stdout: " + (dir_.path() / "out.log").string()));
  EXPECT_THAT(text, ::testing::EndsWith("[exit code 1]\n"));
}

TEST_F(CommandReportTest, FailuresTheDigestHasNoRoomForAreCounted) {
  std::set<int> failing;
  for (int line = 1000; line < 9000; line += 100) failing.insert(line);
  process::CommandResult done =
      result(process::CommandEnd::kExited, testing::generated_pytest_log(10000, failing), "");
  const std::string text = report_command(done, {}).output;
  EXPECT_LT(text.size(), 8000u);
  EXPECT_THAT(text, HasSubstr("1000: tests/test_mod_0010.py::test_case_01000 FAILED"));
  EXPECT_THAT(text, ::testing::ContainsRegex(
                        "[0-9]+ more lines that look like failures are not shown \\(the first "
                        "is line [0-9,]+\\): grep the log for them\\."));
}

TEST_F(CommandReportTest, ACutStderrIsDigestedToo) {
  process::CommandResult done =
      result(process::CommandEnd::kExited, "",
             testing::fixture_log("gcc_make.log") + numbered_lines(1, 2500) + "done\n");
  const std::string text = report_command(done, {}).output;
  EXPECT_THAT(text, ::testing::StartsWith("[stderr]\nmake -C build all\n"));
  EXPECT_THAT(text, HasSubstr("[stderr truncated: 2,525 lines"));
  EXPECT_THAT(text, HasSubstr("\ndone\n"));
  EXPECT_LT(text.size(), 8000u);
}

TEST(ShareBudget, SplitsFairly) {
  using Split = std::pair<std::size_t, std::size_t>;
  EXPECT_EQ(share_budget(100, 30, 40), (Split(30, 40)));
  EXPECT_EQ(share_budget(100, 10, 400), (Split(10, 90)));
  EXPECT_EQ(share_budget(100, 400, 10), (Split(90, 10)));
  EXPECT_EQ(share_budget(100, 300, 400), (Split(50, 50)));
}

TEST(DescribeSignal, NamesTheSignal) {
  EXPECT_EQ(describe_signal(SIGKILL), "SIGKILL (Killed)");
  EXPECT_EQ(describe_signal(SIGSEGV), "SIGSEGV (Segmentation fault)");
  EXPECT_EQ(describe_signal(1000), "signal 1000");
}

}  // namespace
}  // namespace nib::tools
