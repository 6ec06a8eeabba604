#include "process/job_log.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <string>

#include "support/temp_dir.hpp"
#include "tools/limits.hpp"

namespace nib::process {
namespace {

class JobLogTest : public ::testing::Test {
 protected:
  LogFile file() const {
    const auto path = dir_.path() / "job.log";
    return {UniqueFd(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600)), path};
  }
  std::string logged() const { return testing::file_contents(dir_.path() / "job.log"); }

  testing::TempDir dir_;
};

TEST_F(JobLogTest, CleansCompleteLinesAndKeepsThemInOrder) {
  JobLog log(file());
  log.append("\x1b[32mgreen\x1b[0m\nprogress 10%\rprogress 100%\n");
  log.append("part");
  EXPECT_EQ(log.end().bytes, std::string("green\nprogress 100%\n").size())
      << "the unfinished line waits for its end";
  log.append("ial\n");
  EXPECT_EQ(logged(), "green\nprogress 100%\npartial\n");
  EXPECT_EQ(log.end().lines, 3u);
}

TEST_F(JobLogTest, AnUnfinishedLineIsShownWhenFlushed) {
  JobLog log(file());
  log.append("Password: ");
  log.flush_partial_line();
  EXPECT_EQ(log.since({}, 1000, 100).text, "Password: ");
  EXPECT_EQ(log.last_lines(1), std::vector<std::string>{"Password: "});
}

TEST_F(JobLogTest, ReadsWhatCameAfterAPositionAndKeepsTheEndWhenItIsTooMuch) {
  JobLog log(file());
  for (int i = 1; i <= 100; ++i) log.append("line " + std::to_string(i) + "\n");
  const JobLogSlice first = log.since({}, 1'000'000, 10);
  EXPECT_EQ(first.text.substr(0, 8), "line 91\n") << "the last 10 lines";
  EXPECT_EQ(first.shown_from.lines, 90u) << "numbered as in the log";
  EXPECT_GT(first.left_out, 0u);
  log.append("line 101\n");
  const JobLogSlice next = log.since(first.end, 1'000'000, 10);
  EXPECT_EQ(next.text, "line 101\n");
  EXPECT_EQ(next.left_out, 0u);
  const JobLogSlice cut = log.since({}, 20, 1000);
  EXPECT_EQ(cut.text, "line 100\nline 101\n") << "cut at a line start within the bytes";
}

TEST_F(JobLogTest, ALogThatPrintsForeverStopsTheFileAtItsCapAndKeepsMemoryFlat) {
  JobLog log(file());
  const std::string chunk = std::string(1023, 'x') + "\n";
  std::size_t most_memory = 0;
  for (std::size_t written = 0; written < kMaxLogBytes + 4 * 1024 * 1024; written += chunk.size()) {
    log.append(chunk);
    most_memory = std::max(most_memory, log.memory_bytes());
  }
  EXPECT_TRUE(log.log_stopped());
  EXPECT_EQ(log.logged_bytes(), kMaxLogBytes);
  const std::string text = logged();
  EXPECT_LT(text.size(), kMaxLogBytes + 200);
  EXPECT_NE(text.find("[nib: this log stops here"), std::string::npos);
  EXPECT_LE(most_memory, 2 * kJobTailBytes + 2 * chunk.size() + kJobPendingLineBytes)
      << "memory stays bounded however much the job prints";
  const JobLogSlice last = log.since({}, kMaxOutputBytes, kMaxOutputLines);
  EXPECT_LE(last.text.size(), kMaxOutputBytes);
  EXPECT_EQ(last.text.back(), '\n');
}

TEST_F(JobLogTest, ALineWithoutEndIsTakenOnceItOutgrowsItsBound) {
  JobLog log(file());
  log.append(std::string(kJobPendingLineBytes + 10, 'y'));
  EXPECT_EQ(log.end().bytes, kJobPendingLineBytes + 10);
  EXPECT_LE(log.memory_bytes(), 2 * kJobTailBytes + 2 * kJobPendingLineBytes + 64);
}

}  // namespace
}  // namespace nib::process
