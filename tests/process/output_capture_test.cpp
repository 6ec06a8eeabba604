#include "process/output_capture.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/scoped_places.hpp"
#include "support/temp_dir.hpp"

namespace nib::process {
namespace {

std::string read_capture(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

// Creates logs in a test directory and counts how often it was asked to.
class CountingOpener {
 public:
  explicit CountingOpener(const std::filesystem::path& dir) : dir_(dir) {}
  LogOpener opener() {
    return [this] {
      ++calls_;
      const auto path = dir_ / ("log-" + std::to_string(calls_));
      return LogFile{UniqueFd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)),
                     path};
    };
  }
  int calls() const { return calls_; }

 private:
  std::filesystem::path dir_;
  int calls_ = 0;
};

TEST(OutputCapture, ShortOutputStaysInMemory) {
  testing::TempDir dir;
  CountingOpener logs(dir.path());
  OutputCapture capture(logs.opener());
  capture.append("hello\n");
  capture.append("world");
  capture.finish();
  EXPECT_EQ(capture.tail(), "hello\nworld");
  EXPECT_TRUE(capture.complete());
  EXPECT_EQ(capture.total_bytes(), 11u);
  EXPECT_EQ(capture.total_lines(), 2u);
  EXPECT_FALSE(capture.log_path().has_value());
  EXPECT_EQ(logs.calls(), 0);
}

TEST(OutputCapture, TooManyLinesStartsTheLogWithEverythingSoFar) {
  testing::TempDir dir;
  CountingOpener logs(dir.path());
  OutputCapture capture(logs.opener(),
                        {.tail_bytes = 1000, .spill_lines = 3, .max_log_bytes = 1000});
  capture.append("1\n2\n3\n");
  EXPECT_EQ(logs.calls(), 0);
  capture.append("4\n5\n");
  ASSERT_TRUE(capture.log_path().has_value());
  capture.finish();
  EXPECT_EQ(read_capture(*capture.log_path()), "1\n2\n3\n4\n5\n");
  EXPECT_FALSE(capture.log_partial());
  EXPECT_EQ(capture.log_lines(), 5u);
  EXPECT_EQ(logs.calls(), 1);
}

TEST(OutputCapture, RingKeepsTheLastBytesAcrossWraps) {
  testing::TempDir dir;
  CountingOpener logs(dir.path());
  OutputCapture capture(logs.opener(),
                        {.tail_bytes = 7, .spill_lines = 100, .max_log_bytes = 1000});
  std::string all;
  const char* pieces[] = {"ab", "cdefg", "h", "ijklmnopq", "rs", "t", "uvw"};
  for (const char* piece : pieces) {
    capture.append(piece);
    all += piece;
    EXPECT_EQ(capture.tail(), all.substr(all.size() > 7 ? all.size() - 7 : 0)) << all;
  }
  EXPECT_FALSE(capture.complete());
  capture.finish();
  EXPECT_EQ(read_capture(*capture.log_path()), all);
}

TEST(OutputCapture, LogKeepsOnlyTheFirstBytesAndSaysSo) {
  testing::TempDir dir;
  CountingOpener logs(dir.path());
  OutputCapture capture(logs.opener(), {.tail_bytes = 4, .spill_lines = 100, .max_log_bytes = 10});
  capture.append("0123\n");
  capture.append("56789\nabcdef\n");
  capture.finish();
  EXPECT_TRUE(capture.log_partial());
  EXPECT_EQ(capture.log_bytes(), 10u);
  EXPECT_EQ(capture.log_lines(), 1u);
  EXPECT_EQ(capture.total_bytes(), 18u);
  EXPECT_EQ(capture.tail(), "def\n");
  EXPECT_EQ(read_capture(*capture.log_path()),
            "0123\n56789\n[nib: this log holds only the first 10 bytes of 18; the rest was not "
            "kept]\n");
}

TEST(OutputCapture, EnsureLogWritesWhatIsInMemory) {
  testing::TempDir dir;
  CountingOpener logs(dir.path());
  OutputCapture capture(logs.opener());
  capture.append("short\n");
  capture.ensure_log();
  capture.finish();
  ASSERT_TRUE(capture.log_path().has_value());
  EXPECT_EQ(read_capture(*capture.log_path()), "short\n");
}

TEST(OutputCapture, FailingLogIsReportedAndCountingGoesOn) {
  OutputCapture capture([] { return util::Result<LogFile>::failure("disk on fire"); },
                        {.tail_bytes = 4, .spill_lines = 100, .max_log_bytes = 100});
  capture.append("0123456789\n");
  capture.finish();
  EXPECT_FALSE(capture.log_path().has_value());
  EXPECT_EQ(capture.log_error(), "disk on fire");
  EXPECT_EQ(capture.total_bytes(), 11u);
  EXPECT_EQ(capture.tail(), "789\n");
}

TEST(OutputCapture, KeepsTheHeadAndFailuresThatLeftTheRing) {
  testing::TempDir dir;
  CountingOpener logs(dir.path());
  OutputCapture capture(logs.opener(),
                        {.tail_bytes = 64, .spill_lines = 100, .max_log_bytes = 100000});
  capture.append("first\nsecond\n");
  for (int i = 3; i <= 102; ++i) capture.append("step " + std::to_string(i) + "\n");
  capture.append("error: disk full\n");
  for (int i = 104; i <= 203; ++i) capture.append("step " + std::to_string(i) + "\n");
  capture.finish();
  EXPECT_EQ(capture.total_lines(), 203u);
  EXPECT_EQ(capture.tail().find("error"), std::string::npos);
  const ExcerptCollector& collected = capture.collector();
  ASSERT_GE(collected.head().size(), 2u);
  EXPECT_EQ(collected.head()[0].text, "first");
  EXPECT_EQ(collected.head()[1].number, 2u);
  ASSERT_EQ(collected.excerpts().size(), 1u);
  const Excerpt& excerpt = collected.excerpts()[0];
  ASSERT_EQ(excerpt.size(), 4u);  // the line before, the failure, the two after
  EXPECT_EQ(excerpt[1].number, 103u);
  EXPECT_EQ(excerpt[1].text, "error: disk full");
  EXPECT_TRUE(excerpt[1].failure);
}

TEST(PrivateTempDir, IsPrivateAndLogsAre0600) {
  testing::TempDir dir;
  const auto created = [&] {
    const testing::ScopedPlaces temp(&util::UserPlaces::temp_dir, dir.path());
    return create_private_log("unit");
  }();
  ASSERT_TRUE(created.ok()) << created.error();
  const LogFile& log = created.value();
  ASSERT_TRUE(log.fd.valid());
  EXPECT_EQ(log.path.parent_path(), dir.path() / ("nib-" + std::to_string(::geteuid())));
  struct stat info {};
  ASSERT_EQ(::lstat(log.path.parent_path().c_str(), &info), 0);
  EXPECT_TRUE(S_ISDIR(info.st_mode));
  EXPECT_EQ(info.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat(log.path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
}

TEST(PrivateTempDir, RefusesASymlinkInPlaceOfTheDirectory) {
  testing::TempDir dir;
  std::filesystem::create_directory(dir.path() / "elsewhere");
  std::filesystem::create_directory_symlink(dir.path() / "elsewhere",
                                            dir.path() / ("nib-" + std::to_string(::geteuid())));
  const testing::ScopedPlaces temp(&util::UserPlaces::temp_dir, dir.path());
  const auto private_dir = open_private_temp_dir();
  EXPECT_FALSE(private_dir.ok());
  EXPECT_FALSE(private_dir.error().empty());
}

TEST(PrivateTempDir, TightensALooseMode) {
  testing::TempDir dir;
  const auto path = dir.path() / ("nib-" + std::to_string(::geteuid()));
  std::filesystem::create_directory(path);
  ::chmod(path.c_str(), 0777);
  const testing::ScopedPlaces temp(&util::UserPlaces::temp_dir, dir.path());
  const auto private_dir = open_private_temp_dir();
  ASSERT_TRUE(private_dir.ok()) << private_dir.error();
  ASSERT_TRUE(private_dir.value().fd.valid());
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u);
}

}  // namespace
}  // namespace nib::process
