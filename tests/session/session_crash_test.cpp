// kill -9 at a random moment while a child process appends to a session: the file must load, hold
// every entry the child reported as written, and accept further entries.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/stat.h>

#include <random>

#include "session/sample_messages.hpp"
#include "session/session_file.hpp"
#include "session/session_writer.hpp"
#include "support/temp_dir.hpp"

namespace nib::session {
namespace {

// Large lines make a kill likely to land inside a write (the kernel checks for a fatal signal
// between pages), which is the case that leaves a cut-off last line.
constexpr std::size_t kLineTextBytes = 2 * 1024 * 1024;
constexpr int kRounds = 4;
constexpr int kMinLinesBeforeKill = 2;
constexpr int kMaxLinesBeforeKill = 8;

std::string line_text(int index) {
  return std::string(kLineTextBytes, static_cast<char>('a' + index % 26));
}

// The child: appends messages forever, writing one byte to `report_fd` after each one is
// written. Never returns.
[[noreturn]] void append_until_killed(const std::filesystem::path& file, int report_fd) {
  auto writer = SessionWriter::open_existing(file);
  if (!writer.ok()) ::_exit(1);
  for (int i = 0;; ++i) {
    if (!writer.value().append(MessageEntry{testing::user_message(line_text(i))}).ok()) ::_exit(2);
    const char done = 'x';
    if (::write(report_fd, &done, 1) != 1) ::_exit(3);
  }
}

std::uintmax_t size_of(const std::filesystem::path& file) {
  struct stat status {};
  return ::stat(file.c_str(), &status) == 0 ? static_cast<std::uintmax_t>(status.st_size) : 0;
}

// Waits until `file` grows past `size` (the child has begun writing its next line) or the child
// is gone. Spins rather than sleeps: the point is to kill as soon as the write is under way.
void wait_for_growth(const std::filesystem::path& file, std::uintmax_t size, pid_t child) {
  while (size_of(file) <= size) {
    siginfo_t info{};
    // WNOWAIT: only look; the test reaps the child itself.
    if (::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        info.si_pid == child) {
      return;
    }
  }
}

TEST(SessionCrashTest, AKilledWriterLeavesALoadableSession) {
  nib::testing::TempDir dir;
  std::random_device seed_source;
  const unsigned seed = seed_source();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> lines_before_kill(kMinLinesBeforeKill, kMaxLinesBeforeKill);

  for (int round = 0; round < kRounds; ++round) {
    const auto file = dir.path() / ("session" + std::to_string(round) + ".jsonl");
    ASSERT_TRUE(SessionWriter::create(file, make_header("/w", "m", "p", {})).ok());
    int report[2];
    ASSERT_EQ(::pipe(report), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(report[0]);
      append_until_killed(file, report[1]);
    }
    ::close(report[1]);
    const int reported = lines_before_kill(random);
    for (int i = 0; i < reported; ++i) {
      char done = 0;
      ASSERT_EQ(::read(report[0], &done, 1), 1) << "the child stopped early";
    }
    // Odd rounds kill while the next line is being written, even ones between two lines.
    if (round % 2 == 1) wait_for_growth(file, size_of(file), child);
    ::kill(child, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ::close(report[0]);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    auto loaded = load_session(file);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    const auto& messages = loaded.value().messages;
    // Every reported line is there; the one being written when the kill came may be too.
    ASSERT_GE(messages.size(), static_cast<std::size_t>(reported));
    ASSERT_LE(messages.size(), static_cast<std::size_t>(reported) + 1);
    for (std::size_t i = 0; i < messages.size(); ++i) {
      EXPECT_TRUE(messages[i] == testing::user_message(line_text(int(i))));
    }

    auto writer = SessionWriter::open_existing(file);
    ASSERT_TRUE(writer.ok()) << writer.error();
    ASSERT_TRUE(writer.value().append(MessageEntry{testing::user_message("after")}).ok());
    auto reloaded = load_session(file);
    ASSERT_TRUE(reloaded.ok()) << reloaded.error();
    EXPECT_EQ(reloaded.value().messages.size(), messages.size() + 1);
    EXPECT_FALSE(reloaded.value().torn_tail);
  }
}

}  // namespace
}  // namespace nib::session
