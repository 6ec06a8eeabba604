// Tests of the file-state tracking behind edit's and write's staleness checks.

#include "tools/file_tracker.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <latch>
#include <set>
#include <thread>
#include <vector>

#include "process/unique_fd.hpp"
#include "support/temp_dir.hpp"

namespace nib::tools {
namespace {

struct stat current_stat(const std::filesystem::path& path) {
  struct stat info {};
  EXPECT_EQ(stat(path.c_str(), &info), 0) << path;
  return info;
}

FileState state_of(const std::filesystem::path& path) {
  const process::UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  EXPECT_TRUE(fd.valid()) << path;
  struct stat info {};
  EXPECT_EQ(fstat(fd.get(), &info), 0);
  return file_state_of(fd.get(), info).value();
}

TEST(ContentHashTest, EqualBytesHashEqual) {
  EXPECT_EQ(content_hash("hello world"), content_hash(std::string("hello ") + "world"));
  EXPECT_EQ(content_hash(""), content_hash(std::string_view()));
}

TEST(ContentHashTest, IsXxh3) {
  // The published XXH3-64 value of the empty input (seed 0), as `xxhsum -H3` prints it.
  EXPECT_EQ(content_hash(""), 0x2D06800538D394C2ULL);
}

TEST(ContentHashTest, EveryBitAndLengthMatters) {
  // One length on each of XXH3's paths: up to 16 bytes, 17 to 128, 129 to 240, and longer.
  for (const std::size_t size : {13, 77, 200, 300}) {
    std::string text;
    for (std::size_t i = 0; i < size; ++i) text += static_cast<char>('a' + i % 26);
    std::set<std::uint64_t> hashes{content_hash(text)};
    for (std::size_t pos = 0; pos < text.size(); ++pos) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string changed = text;
        changed[pos] = static_cast<char>(changed[pos] ^ (1 << bit));
        hashes.insert(content_hash(changed));
      }
    }
    EXPECT_EQ(hashes.size(), 1 + text.size() * 8) << size;
  }
  // Zero bytes appended are not lost.
  EXPECT_NE(content_hash(std::string(8, '\0')), content_hash(std::string(9, '\0')));
  EXPECT_NE(content_hash(std::string(32, '\0')), content_hash(std::string(40, '\0')));
}

TEST(FileStateTest, HashesOnlyUpToTheLimit) {
  struct stat info {};
  info.st_size = 5;
  info.st_ino = 7;
  info.st_mtim.tv_sec = 2;
  info.st_mtim.tv_nsec = 3;
  const FileState small = file_state(info, "hello");
  EXPECT_EQ(small.size, 5u);
  EXPECT_EQ(small.inode, 7u);
  EXPECT_EQ(small.mtime_ns, 2'000'000'003);
  EXPECT_EQ(small.hash, content_hash("hello"));
  info.st_size = static_cast<off_t>(kMaxHashedFileBytes + 1);
  EXPECT_FALSE(file_state(info, "").hash.has_value());
}

TEST(FileStateTest, StateOfAnOpenFileMatchesItsBytes) {
  testing::TempDir dir;
  const auto path = dir.write("a.txt", "some content\n");
  const FileState state = state_of(path);
  EXPECT_EQ(state, file_state(current_stat(path), "some content\n"));
}

TEST(FileStateTest, AFileThatChangedAfterItsStatWasTakenDoesNotLookUnchanged) {
  testing::TempDir dir;
  const auto path = dir.write("a.txt", "before\n");
  const struct stat before = current_stat(path);
  const process::UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  dir.write("a.txt", "after!\n");  // same size; mtime may well be the same tick
  const FileState mixed = file_state_of(fd.get(), before).value();
  EXPECT_NE(mixed, file_state(current_stat(path), "after!\n"));
  EXPECT_NE(mixed, file_state(before, "before\n"));
}

TEST(FileTrackerTest, ReportsNeverSeenUnchangedAndChanged) {
  FileTracker tracker;
  FileState state;
  state.size = 3;
  state.hash = 42;
  EXPECT_EQ(tracker.check("/a", state), Freshness::kNeverSeen);
  tracker.record("/a", state);
  EXPECT_EQ(tracker.check("/a", state), Freshness::kUnchanged);
  EXPECT_EQ(tracker.last_seen("/a"), state);
  EXPECT_FALSE(tracker.last_seen("/b"));

  FileState rewritten = state;  // same size and time, other bytes
  rewritten.hash = 43;
  EXPECT_EQ(tracker.check("/a", rewritten), Freshness::kChanged);
  FileState touched = state;
  touched.mtime_ns = 1;
  EXPECT_EQ(tracker.check("/a", touched), Freshness::kChanged);
  FileState replaced = state;
  replaced.inode = 9;
  EXPECT_EQ(tracker.check("/a", replaced), Freshness::kChanged);

  tracker.record("/a", rewritten);  // the latest record wins
  EXPECT_EQ(tracker.check("/a", rewritten), Freshness::kUnchanged);
}

TEST(FileTrackerTest, TrustingTrackerTakesUnseenFilesAsSeenButStillSeesChanges) {
  FileTracker tracker(UnseenFiles::kTrustCurrent);
  FileState state;
  state.size = 3;
  EXPECT_EQ(tracker.check("/a", state), Freshness::kUnchanged);
  tracker.record("/a", state);
  FileState grown = state;
  grown.size = 4;
  EXPECT_EQ(tracker.check("/a", grown), Freshness::kChanged);
}

TEST(FileTrackerTest, SameSizeRewriteIsNoticedOnDisk) {
  testing::TempDir dir;
  const auto path = dir.write("a.txt", "version 1\n");
  FileTracker tracker;
  tracker.record(path, state_of(path));
  EXPECT_EQ(tracker.check(path, state_of(path)), Freshness::kUnchanged);
  dir.write("a.txt", "version 2\n");
  EXPECT_EQ(tracker.check(path, state_of(path)), Freshness::kChanged);
}

TEST(FileTrackerTest, IsSafeToUseFromSeveralThreads) {
  FileTracker tracker;
  constexpr int kThreads = 4;
  constexpr int kPaths = 200;
  std::latch start(kThreads);
  std::vector<std::jthread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int i = 0; i < kPaths; ++i) {
        FileState state;
        state.size = static_cast<std::uint64_t>(i);
        const std::string path = "/t" + std::to_string(t) + "/" + std::to_string(i);
        tracker.record(path, state);
        EXPECT_EQ(tracker.check(path, state), Freshness::kUnchanged);
      }
    });
  }
  threads.clear();
  EXPECT_EQ(tracker.last_seen("/t3/199")->size, 199u);
}

TEST(ResolveFileTest, FollowsLinksToTheirTarget) {
  testing::TempDir dir;
  const auto base = std::filesystem::canonical(dir.path());
  dir.write("real/file.txt", "x");
  std::filesystem::create_directory_symlink(base / "real", base / "dirlink");
  std::filesystem::create_symlink("real/file.txt", base / "relative");
  std::filesystem::create_symlink(base / "relative", base / "chain");
  EXPECT_EQ(resolve_file(base / "real/file.txt"), base / "real/file.txt");
  EXPECT_EQ(resolve_file(base / "dirlink/file.txt"), base / "real/file.txt");
  EXPECT_EQ(resolve_file(base / "relative"), base / "real/file.txt");
  EXPECT_EQ(resolve_file(base / "chain"), base / "real/file.txt");
}

TEST(ResolveFileTest, FollowsADanglingLinkAndKeepsMissingParts) {
  testing::TempDir dir;
  const auto base = std::filesystem::canonical(dir.path());
  std::filesystem::create_directory(base / "real");
  std::filesystem::create_symlink("real/new.txt", base / "dangling");
  std::filesystem::create_directory_symlink(base / "real", base / "dirlink");
  EXPECT_EQ(resolve_file(base / "dangling"), base / "real/new.txt");
  EXPECT_EQ(resolve_file(base / "dirlink/missing/deeper.txt"), base / "real/missing/deeper.txt");
  EXPECT_EQ(resolve_file(base / "nothing.txt"), base / "nothing.txt");
}

TEST(ResolveFileTest, GivesUpOnALinkLoop) {
  testing::TempDir dir;
  const auto base = std::filesystem::canonical(dir.path());
  std::filesystem::create_symlink("b", base / "a");
  std::filesystem::create_symlink("a", base / "b");
  const auto resolved = resolve_file(base / "a");  // does not hang; names one of the two
  EXPECT_TRUE(resolved == base / "a" || resolved == base / "b") << resolved;
}

}  // namespace
}  // namespace nib::tools
