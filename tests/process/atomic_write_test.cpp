// Tests of atomic file replacement: content, permissions, no temporary files left behind.

#include "process/atomic_write.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/file_size_limit.hpp"
#include "support/temp_dir.hpp"

namespace nib::process {
namespace {

std::string bytes_on_disk(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

struct stat stat_of(const std::filesystem::path& path) {
  struct stat info {};
  EXPECT_EQ(stat(path.c_str(), &info), 0) << path;
  return info;
}

std::size_t entries(const std::filesystem::path& directory) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(directory)) ++count;
  return count;
}

// The process umask, read without changing it for other threads: set and restore.
mode_t current_umask() {
  const mode_t mask = umask(022);
  umask(mask);
  return mask;
}

TEST(AtomicWriteTest, CreatesANewFileWithTheUsualMode) {
  testing::TempDir dir;
  const auto path = dir.path() / "new.txt";
  const auto result = atomic_write(path, "hello\n", std::nullopt);
  ASSERT_TRUE(result.ok()) << result.failed_step;
  EXPECT_EQ(bytes_on_disk(path), "hello\n");
  EXPECT_EQ(stat_of(path).st_mode & 07777, 0666 & ~current_umask());
  EXPECT_EQ(result.written.st_ino, stat_of(path).st_ino);
  EXPECT_EQ(result.written.st_size, 6);
  EXPECT_EQ(entries(dir.path()), 1u);
}

TEST(AtomicWriteTest, ReplacesAFileKeepingItsPermissions) {
  testing::TempDir dir;
  const auto path = dir.write("script.sh", "old content that is longer\n");
  ASSERT_EQ(chmod(path.c_str(), 0751), 0);
  const struct stat before = stat_of(path);
  const auto result = atomic_write(path, "new\n", before);
  ASSERT_TRUE(result.ok()) << result.failed_step;
  EXPECT_EQ(bytes_on_disk(path), "new\n");
  const struct stat after = stat_of(path);
  EXPECT_EQ(after.st_mode & 07777, 0751u);
  EXPECT_EQ(after.st_uid, before.st_uid);
  EXPECT_NE(after.st_ino, before.st_ino);  // a new file was renamed into place
  EXPECT_EQ(entries(dir.path()), 1u);
}

TEST(AtomicWriteTest, WritesEmptyAndBinaryContent) {
  testing::TempDir dir;
  const auto path = dir.path() / "data.bin";
  const std::string binary("\0\x01\xFF\r\n", 5);
  ASSERT_TRUE(atomic_write(path, binary, std::nullopt).ok());
  EXPECT_EQ(bytes_on_disk(path), binary);
  ASSERT_TRUE(atomic_write(path, "", stat_of(path)).ok());
  EXPECT_EQ(bytes_on_disk(path), "");
}

TEST(AtomicWriteTest, AVeryLongNameStillGetsATemporaryFile) {
  testing::TempDir dir;
  const auto path = dir.path() / std::string(250, 'n');
  ASSERT_TRUE(atomic_write(path, "x", std::nullopt).ok());
  EXPECT_EQ(bytes_on_disk(path), "x");
  EXPECT_EQ(entries(dir.path()), 1u);
}

TEST(AtomicWriteTest, FailureLeavesTheFileAndTheDirectoryAsTheyWere) {
  if (geteuid() == 0) GTEST_SKIP() << "root may write into a read-only directory";
  testing::TempDir dir;
  const auto locked = dir.path() / "locked";
  const auto path = dir.write("locked/file.txt", "original\n");
  ASSERT_EQ(chmod(locked.c_str(), 0555), 0);
  const auto result = atomic_write(path, "new\n", stat_of(path));
  chmod(locked.c_str(), 0755);
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.error_number, EACCES);
  EXPECT_TRUE(result.failed_step.starts_with("create a temporary file in ")) << result.failed_step;
  EXPECT_EQ(bytes_on_disk(path), "original\n");
  EXPECT_EQ(entries(locked), 1u);
}

TEST(AtomicWriteTest, AFileWithSeveralHardLinksIsWrittenInPlace) {
  testing::TempDir dir;
  const auto path = dir.write("shared.txt", "old content that is longer\n");
  const auto other = dir.path() / "other-name.txt";
  std::filesystem::create_hard_link(path, other);
  ASSERT_EQ(chmod(path.c_str(), 0640), 0);
  const struct stat before = stat_of(path);
  const auto result = atomic_write(path, "new\n", before);
  ASSERT_TRUE(result.ok()) << result.failed_step;
  EXPECT_TRUE(result.in_place);
  EXPECT_EQ(bytes_on_disk(path), "new\n");
  EXPECT_EQ(bytes_on_disk(other), "new\n");  // the other name still names the same file
  const struct stat after = stat_of(path);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(after.st_nlink, 2u);
  EXPECT_EQ(after.st_mode & 07777, 0640u);
  EXPECT_EQ(result.written.st_ino, before.st_ino);
  EXPECT_EQ(result.written.st_size, 4);
  EXPECT_EQ(entries(dir.path()), 2u);  // no temporary file
}

TEST(AtomicWriteTest, AFailedWriteInPlaceSaysTheFileWasTouched) {
  testing::TempDir dir;
  const auto path = dir.write("shared.txt", "old\n");
  std::filesystem::create_hard_link(path, dir.path() / "other.txt");
  AtomicWriteResult result;
  {
    const testing::FileSizeLimit limit(8);
    result = atomic_write(path, std::string(100, 'x'), stat_of(path));
  }
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(result.in_place);
  EXPECT_EQ(result.error_number, EFBIG);
  EXPECT_EQ(result.failed_step, "write " + path.string());
}

TEST(AtomicWriteTest, AMissingDirectoryIsAnError) {
  testing::TempDir dir;
  const auto result = atomic_write(dir.path() / "missing/file.txt", "x", std::nullopt);
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.error_number, ENOENT);
}

}  // namespace
}  // namespace nib::process
