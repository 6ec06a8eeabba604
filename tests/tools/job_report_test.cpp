// How a job's command is quoted in job lines and notices (tools/job_report.hpp).

#include "tools/job_report.hpp"

#include <gtest/gtest.h>

#include "util/utf8.hpp"

namespace nib::tools {
namespace {

TEST(JobReportTest, QuotesTheFirstLineAndSaysHowMuchIsLeftOut) {
  EXPECT_EQ(quoted_command("npm run dev"), "`npm run dev`");
  EXPECT_EQ(quoted_command("make\nmake test"), "`make`… [10 more bytes]");
  EXPECT_EQ(quoted_command(std::string(70, 'x')),
            "`" + std::string(60, 'x') + "`… [10 more bytes]");
}

TEST(JobReportTest, AQuotedCommandIsCutBetweenCharacters) {
  // "é" is two bytes; byte 60 of "x" followed by forty of them is the second byte of one.
  std::string command = "x";
  std::string kept = "x";
  for (int i = 0; i < 40; ++i) command += "é";
  for (int i = 0; i < 29; ++i) kept += "é";
  const std::string quoted = quoted_command(command);
  EXPECT_EQ(quoted, "`" + kept + "`… [22 more bytes]");
  EXPECT_TRUE(util::is_valid_utf8(quoted));
}

}  // namespace
}  // namespace nib::tools
