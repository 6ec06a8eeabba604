#include "tools/command_report.hpp"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <string>

#include "support/temp_dir.hpp"

namespace nib::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class CommandReportTest : public ::testing::Test {
 protected:
  LogOpener opener(std::string name) {
    return [this, name] {
      const auto path = dir_.path() / name;
      return LogFile{
          UniqueFd(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600)), path, {}};
    };
  }
  CommandResult result(CommandEnd end, std::string out, std::string err) {
    CommandResult made{.stdout_capture = OutputCapture(opener("out.log")),
                       .stderr_capture = OutputCapture(opener("err.log"))};
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
  CommandResult done = result(CommandEnd::kExited, "hello\n", "");
  const core::ToolOutput output = report_command(done, {});
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.exit_code, 0);
  EXPECT_EQ(output.output, "hello\n");
}

TEST_F(CommandReportTest, NoOutputSaysSo) {
  CommandResult done = result(CommandEnd::kExited, "", "");
  EXPECT_EQ(report_command(done, {}).output, "(no output)\n");
  CommandResult invisible = result(CommandEnd::kExited, std::string("\0\x1b[0m", 5), "");
  EXPECT_EQ(report_command(invisible, {}).output, "(no printable output)\n");
}

TEST_F(CommandReportTest, NonZeroExitIsDataNotAnError) {
  CommandResult done = result(CommandEnd::kExited, "out\n", "err\n");
  done.exit_code = 3;
  const core::ToolOutput output = report_command(done, {});
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.exit_code, 3);
  EXPECT_EQ(output.output, "[stdout]\nout\n[stderr]\nerr\n[exit code 3]\n");
}

TEST_F(CommandReportTest, ShellSignalExitCodeGetsAHint) {
  CommandResult done = result(CommandEnd::kExited, "", "");
  done.exit_code = 139;
  EXPECT_THAT(report_command(done, {}).output,
              HasSubstr("[exit code 139: usually means a process was killed by SIGSEGV"));
}

TEST_F(CommandReportTest, StderrOnlyIsLabelled) {
  CommandResult done = result(CommandEnd::kExited, "", "oops");
  EXPECT_EQ(report_command(done, {}).output, "[stderr]\noops\n");
}

TEST_F(CommandReportTest, TimeoutIsAnErrorWithTheOutputSoFar) {
  CommandResult done = result(CommandEnd::kTimedOut, "partial\n", "");
  const core::ToolOutput output = report_command(done, {.timeout_seconds = 1.5});
  EXPECT_TRUE(output.is_error);
  EXPECT_FALSE(output.exit_code.has_value());
  EXPECT_THAT(output.output, HasSubstr("timed out after 1.5 s"));
  EXPECT_THAT(output.output, HasSubstr("partial\n"));
}

TEST_F(CommandReportTest, AbortIsAnError) {
  CommandResult done = result(CommandEnd::kAborted, "so far\n", "");
  const core::ToolOutput output = report_command(done, {});
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("aborted"));
  EXPECT_THAT(output.output, HasSubstr("so far\n"));
}

TEST_F(CommandReportTest, DeathBySignalIsNamed) {
  CommandResult done = result(CommandEnd::kSignaled, "before\n", "");
  done.signal = SIGSEGV;
  done.core_dumped = true;
  const core::ToolOutput output = report_command(done, {});
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("killed by SIGSEGV (Segmentation fault), core dumped"));
  EXPECT_THAT(output.output, HasSubstr("before\n"));
}

TEST_F(CommandReportTest, NotStartedIsAnError) {
  CommandResult failed = result(CommandEnd::kNotStarted, "", "");
  failed.pid = -1;
  failed.error = "No such file or directory";
  const core::ToolOutput output = report_command(failed, {});
  EXPECT_TRUE(output.is_error);
  EXPECT_EQ(output.output, "Error: could not start the command: No such file or directory.");
}

TEST_F(CommandReportTest, SanitisesWhatItShows) {
  CommandResult done = result(CommandEnd::kExited, "\x1b[32mok\x1b[0m \xff\n", "");
  EXPECT_EQ(report_command(done, {}).output, "ok \xEF\xBF\xBD\n");
}

TEST_F(CommandReportTest, LongStdoutShowsItsTailAndPointsAtTheLog) {
  CommandResult done = result(CommandEnd::kExited, numbered_lines(1, 3000), "");
  const core::ToolOutput output = report_command(done, {});
  EXPECT_THAT(output.output, HasSubstr("line 3000\n"));
  EXPECT_THAT(output.output, ::testing::StartsWith("line 1001\n"));
  EXPECT_THAT(output.output, Not(HasSubstr("line 1000\n")));
  const auto log = dir_.path() / "out.log";
  EXPECT_THAT(output.output, HasSubstr("[stdout truncated: showing lines 1001-3000 of 3000"));
  EXPECT_THAT(output.output, HasSubstr("Full stdout: " + log.string() + "; use read on it"));
  EXPECT_EQ(std::filesystem::file_size(log), numbered_lines(1, 3000).size());
}

TEST_F(CommandReportTest, BothStreamsShareOneBudget) {
  CommandResult done = result(CommandEnd::kExited, numbered_lines(1, 3000), "e1\ne2\n");
  const std::string text = report_command(done, {}).output;
  // stderr keeps its two lines; stdout gets the rest of the 2000-line budget.
  EXPECT_THAT(text, HasSubstr("[stderr]\ne1\ne2\n"));
  EXPECT_THAT(text, HasSubstr("showing lines 1003-3000 of 3000"));
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "err.log"));
}

TEST_F(CommandReportTest, OverlongSingleLineShowsItsEnd) {
  CommandResult done = result(CommandEnd::kExited, std::string(200 * 1024, 'x') + "END", "");
  const std::string text = report_command(done, {}).output;
  EXPECT_THAT(text, HasSubstr("xxxEND\n"));
  EXPECT_THAT(text, HasSubstr("bytes of line 1 of 1"));
  EXPECT_LE(text.size(), kMaxOutputBytes + 1024);
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
