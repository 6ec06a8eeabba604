// Tests of the parallel directory walk: what it reports, the ignore files it honours, and the
// trees that must not hang or crash it (symlink loops, FIFOs, unreadable and vanishing entries).

#include "tools/walk.hpp"

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"

namespace nib::tools {
namespace {

namespace fs = std::filesystem;
using Strings = std::vector<std::string>;

struct Walked {
  Strings entries;  // relative paths, sorted; directories end with '/'
  WalkSummary summary;
};

Walked walk(const fs::path& root, WalkOptions options = {}, std::stop_token stop = {}) {
  Walked walked;
  std::mutex mutex;
  walked.summary = walk_files(root, options, stop, [&](const WalkEntry& entry) {
    EXPECT_TRUE(entry.path.is_absolute()) << entry.path;
    if (fs::is_directory(root)) {
      EXPECT_EQ(entry.path, root / entry.relative) << entry.relative;
    }
    const std::lock_guard lock(mutex);
    walked.entries.push_back(entry.relative + (entry.is_directory ? "/" : ""));
    return true;
  });
  std::sort(walked.entries.begin(), walked.entries.end());
  return walked;
}

Strings walked_entries(const fs::path& root, WalkOptions options = {}) {
  return walk(root, options).entries;
}

class WalkTest : public ::testing::Test {
 protected:
  void touch(const std::string& relative, std::string_view content = "x") {
    dir_.write(relative, content);
  }
  fs::path root() const { return dir_.path(); }

  testing::TempDir dir_;
};

TEST_F(WalkTest, ReportsFilesWithRelativeAndAbsolutePaths) {
  touch("a.txt");
  touch("src/main.cpp");
  touch("src/deep/er/x.h");
  fs::create_directories(root() / "empty");
  const Walked walked = walk(root());
  EXPECT_EQ(walked.entries, (Strings{"a.txt", "src/deep/er/x.h", "src/main.cpp"}));
  EXPECT_EQ(walked.summary.files, 3u);
  EXPECT_TRUE(walked.summary.unreadable.empty());
  EXPECT_FALSE(walked.summary.stopped);
}

TEST_F(WalkTest, ReportsDirectoriesWhenAsked) {
  touch("src/main.cpp");
  fs::create_directories(root() / "empty");
  WalkOptions options;
  options.report_directories = true;
  const Walked walked = walk(root(), options);
  EXPECT_EQ(walked.entries, (Strings{"empty/", "src/", "src/main.cpp"}));
  EXPECT_EQ(walked.summary.files, 1u);
}

TEST_F(WalkTest, SkipsHiddenEntriesUnlessAskedAndGitAlways) {
  touch(".env");
  touch(".config/settings.json");
  touch(".git/HEAD");
  touch("visible.txt");
  EXPECT_EQ(walked_entries(root()), (Strings{"visible.txt"}));
  WalkOptions options;
  options.include_hidden = true;
  EXPECT_EQ(walked_entries(root(), options),
            (Strings{".config/settings.json", ".env", "visible.txt"}));
}

TEST_F(WalkTest, NegationInAnIgnoreFileLetsAHiddenEntryThrough) {
  touch(".gitignore", ".*\n!/.github/\n!.keep\n");
  touch(".github/workflows/ci.yml");
  touch(".github/.keep");
  touch(".cache/x");
  touch(".env");
  touch("main.c");
  EXPECT_EQ(walked_entries(root()),
            (Strings{".github/.keep", ".github/workflows/ci.yml", "main.c"}));
}

TEST_F(WalkTest, HiddenRootIsStillWalked) {
  touch(".github/workflows/ci.yml");
  EXPECT_EQ(walked_entries(root() / ".github"), (Strings{"workflows/ci.yml"}));
}

TEST_F(WalkTest, NestedGitignoresApplyToTheirSubtreesAndOverrideShallowerOnes) {
  touch(".gitignore", "*.log\nbuild/\n/top-only.txt\n");
  touch("a.log");
  touch("top-only.txt");
  touch("build/out.o");
  touch("src/build/out.o");
  touch("src/top-only.txt");
  touch("src/debug.log");
  touch("src/.gitignore", "!keep.log\n/local.tmp\n");
  touch("src/keep.log");
  touch("src/local.tmp");
  touch("src/sub/local.tmp");
  touch("other/keep.log");
  EXPECT_EQ(walked_entries(root()),
            (Strings{"src/keep.log", "src/sub/local.tmp", "src/top-only.txt"}));
}

TEST_F(WalkTest, NegatedFileInsideAnIgnoredDirectoryStaysIgnored) {
  touch(".gitignore", "generated/\n!generated/keep.c\n");
  touch("generated/keep.c");
  touch("generated/drop.c");
  touch("main.c");
  EXPECT_EQ(walked_entries(root()), (Strings{"main.c"}));
}

TEST_F(WalkTest, DirectoryContentsPatternCanBeNegatedPerFile) {
  // "dir/**" leaves dir itself included, so a later negation can re-include one file in it.
  touch(".gitignore", "vendor/**\n!vendor/keep.h\n");
  touch("vendor/keep.h");
  touch("vendor/drop.h");
  EXPECT_EQ(walked_entries(root()), (Strings{"vendor/keep.h"}));
}

TEST_F(WalkTest, DotIgnoreWinsOverGitignoreAndExcludeIsHonoured) {
  fs::create_directories(root() / ".git/info");
  touch(".git/info/exclude", "*.secret\n");
  touch(".gitignore", "wanted.gen\n*.gen\n");
  touch(".ignore", "!wanted.gen\n");
  touch("wanted.gen");
  touch("other.gen");
  touch("key.secret");
  touch("main.c");
  EXPECT_EQ(walked_entries(root()), (Strings{"main.c", "wanted.gen"}));
}

TEST_F(WalkTest, GitignoreIsHonouredOutsideARepository) {
  touch(".gitignore", "*.o\n");
  touch("main.o");
  touch("main.c");
  EXPECT_EQ(walked_entries(root()), (Strings{"main.c"}));
}

TEST_F(WalkTest, RespectIgnoreOffReportsEverythingButHidden) {
  touch(".gitignore", "*.o\n");
  touch(".ignore", "*.c\n");
  touch("main.o");
  touch("main.c");
  WalkOptions options;
  options.respect_ignore = false;
  EXPECT_EQ(walked_entries(root(), options), (Strings{"main.c", "main.o"}));
}

TEST_F(WalkTest, RepositoryRulesAboveTheRootApply) {
  fs::create_directories(root() / ".git/info");
  touch(".git/info/exclude", "*.excluded\n");
  touch(".gitignore", "*.tmp\n/pkg/gen/\n");
  touch("pkg/.gitignore", "*.local\n");
  touch("pkg/a.tmp");
  touch("pkg/gen/x.c");
  touch("pkg/sub/b.local");
  touch("pkg/sub/c.excluded");
  touch("pkg/sub/main.c");
  EXPECT_EQ(walked_entries(root() / "pkg/sub"), (Strings{"main.c"}));
  EXPECT_EQ(walked_entries(root() / "pkg"), (Strings{"sub/main.c"}));
}

TEST_F(WalkTest, SymlinkedFilesAreReportedAndDirectoryLinksNotEnteredByDefault) {
  touch("real/file.txt");
  fs::create_symlink("real/file.txt", root() / "link.txt");
  fs::create_directory_symlink("real", root() / "linked-dir");
  fs::create_symlink("missing", root() / "dangling");
  EXPECT_EQ(walked_entries(root()), (Strings{"link.txt", "real/file.txt"}));
  WalkOptions options;
  options.report_directories = true;
  EXPECT_EQ(walked_entries(root(), options),
            (Strings{"link.txt", "linked-dir/", "real/", "real/file.txt"}));
  options.follow_symlinks = true;
  EXPECT_EQ(walked_entries(root(), options),
            (Strings{"link.txt", "linked-dir/", "linked-dir/file.txt", "real/", "real/file.txt"}));
}

TEST_F(WalkTest, LinksCanBePassedOverAltogether) {
  touch("real/file.txt");
  fs::create_symlink("real/file.txt", root() / "link.txt");
  fs::create_directory_symlink("real", root() / "linked-dir");
  WalkOptions options;
  options.report_symlinks = false;
  options.report_directories = true;
  EXPECT_EQ(walked_entries(root(), options), (Strings{"real/", "real/file.txt"}));
  // A link named as the root is still walked.
  EXPECT_EQ(walked_entries(root() / "linked-dir", options), (Strings{"file.txt"}));
}

TEST_F(WalkTest, SymlinkLoopsEndWhenFollowingLinks) {
  touch("a/file.txt");
  fs::create_directory_symlink(".", root() / "a/self");
  fs::create_directory_symlink("..", root() / "a/up");
  WalkOptions options;
  options.follow_symlinks = true;
  const Walked walked = walk(root(), options);
  // Both links lead back to a directory on the way down (a itself, and the root).
  EXPECT_EQ(walked.entries, (Strings{"a/file.txt"}));
  EXPECT_EQ(walked.summary.symlink_loops, 2u);
  EXPECT_TRUE(walked.summary.unreadable.empty());
  options.follow_symlinks = false;
  EXPECT_EQ(walked_entries(root(), options), (Strings{"a/file.txt"}));
}

TEST_F(WalkTest, FifosAreSkippedWithoutBeingOpened) {
  touch("plain.txt");
  ASSERT_EQ(mkfifo((root() / "pipe").c_str(), 0600), 0);
  // A FIFO where an ignore file is expected must not block the walk either.
  ASSERT_EQ(mkfifo((root() / ".gitignore").c_str(), 0600), 0);
  fs::create_directories(root() / "sub");
  ASSERT_EQ(mkfifo((root() / "sub/.ignore").c_str(), 0600), 0);
  const Walked walked = walk(root());
  EXPECT_EQ(walked.entries, (Strings{"plain.txt"}));
  EXPECT_EQ(walked.summary.skipped_special, 1u);  // .gitignore and .ignore are hidden
}

TEST_F(WalkTest, RootThatIsAFileOrMissingOrSpecial) {
  touch(".hidden.txt");
  const Walked file = walk(root() / ".hidden.txt");
  EXPECT_EQ(file.entries, (Strings{".hidden.txt"}));
  EXPECT_EQ(file.summary.files, 1u);
  const Walked missing = walk(root() / "nope");
  EXPECT_TRUE(missing.entries.empty());
  EXPECT_EQ(missing.summary.unreadable, (Strings{"."}));
  ASSERT_EQ(mkfifo((root() / "pipe").c_str(), 0600), 0);
  const Walked fifo = walk(root() / "pipe");
  EXPECT_TRUE(fifo.entries.empty());
  EXPECT_EQ(fifo.summary.skipped_special, 1u);
}

// Walks `root` as an unprivileged user in a child process (root reads every directory whatever
// its mode) and returns the unreadable directories it reports, one per line.
std::string unreadable_as_nobody(const fs::path& root) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0) _exit(3);
    WalkOptions options;
    options.threads = 2;
    const WalkSummary summary =
        walk_files(root, options, {}, [](const WalkEntry&) { return true; });
    std::string text;
    for (const auto& name : summary.unreadable) text += name + "\n";
    text += "files=" + std::to_string(summary.files) + "\n";
    const bool written = write(fds[1], text.data(), text.size()) == ssize_t(text.size());
    _exit(written ? 0 : 4);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t count; (count = read(fds[0], buffer, sizeof buffer)) > 0;)
    text.append(buffer, count);
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 3) return "cannot drop privileges";
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "child failed";
  return text;
}

TEST_F(WalkTest, UnreadableDirectoriesAreNamedAndTheRestIsWalked) {
  touch("open/a.txt");
  touch("locked/secret.txt");
  touch("b.txt");
  fs::permissions(root(), fs::perms::all);  // reachable for the unprivileged child below
  fs::permissions(root() / "open", fs::perms::all);
  fs::permissions(root() / "locked", fs::perms::none);
  if (geteuid() == 0) {
    const std::string outcome = unreadable_as_nobody(root());
    if (outcome == "cannot drop privileges") GTEST_SKIP() << "root here cannot become nobody";
    EXPECT_EQ(outcome, "locked\nfiles=2\n");
  } else {
    const Walked walked = walk(root());
    EXPECT_EQ(walked.entries, (Strings{"b.txt", "open/a.txt"}));
    EXPECT_EQ(walked.summary.unreadable, (Strings{"locked"}));
  }
}

TEST_F(WalkTest, EntriesVanishingMidWalkArePassedOverQuietly) {
  // Directories are reported when their parent is listed and opened later, so removing one
  // from the callback makes it vanish between the two, on every run.
  touch("gone/a.txt");
  touch("gone/deeper/b.txt");
  touch("stays/c.txt");
  WalkOptions options;
  options.report_directories = true;
  Strings seen;
  std::mutex mutex;
  const WalkSummary summary = walk_files(root(), options, {}, [&](const WalkEntry& entry) {
    if (entry.relative == "gone") fs::remove_all(entry.path);
    const std::lock_guard lock(mutex);
    seen.push_back(entry.relative);
    return true;
  });
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (Strings{"gone", "stays", "stays/c.txt"}));
  EXPECT_TRUE(summary.unreadable.empty());
}

TEST_F(WalkTest, DirectoryReplacedByALinkIsNotFollowed) {
  touch("dir/a.txt");
  touch("elsewhere/secret.txt");
  WalkOptions options;
  options.report_directories = true;
  options.threads = 1;
  Strings seen;
  walk_files(root(), options, {}, [&](const WalkEntry& entry) {
    if (entry.relative == "dir") {
      fs::remove_all(entry.path);
      fs::create_directory_symlink(root() / "elsewhere", entry.path);
    }
    seen.push_back(entry.relative);
    return true;
  });
  EXPECT_EQ(std::count(seen.begin(), seen.end(), "dir/secret.txt"), 0);
}

TEST_F(WalkTest, StopTokenEndsTheWalk) {
  for (int i = 0; i < 20; ++i) touch("d" + std::to_string(i) + "/f.txt");
  std::stop_source source;
  std::atomic<int> calls = 0;
  const WalkSummary summary = walk_files(root(), {}, source.get_token(), [&](const WalkEntry&) {
    ++calls;
    source.request_stop();
    return true;
  });
  EXPECT_TRUE(summary.stopped);
  EXPECT_LT(calls.load(), 20);  // each worker sees the stop before its next entry

  std::stop_source already;
  already.request_stop();
  const Walked none = walk(root(), {}, already.get_token());
  EXPECT_TRUE(none.entries.empty());
  EXPECT_TRUE(none.summary.stopped);
}

TEST_F(WalkTest, CallbackCanEndTheWalk) {
  for (int i = 0; i < 10; ++i) touch("f" + std::to_string(i) + ".txt");
  std::atomic<int> calls = 0;
  WalkOptions options;
  options.threads = 1;
  const WalkSummary summary = walk_files(root(), options, {}, [&](const WalkEntry&) {
    ++calls;
    return false;
  });
  EXPECT_EQ(calls.load(), 1);
  EXPECT_TRUE(summary.stopped);
}

TEST_F(WalkTest, ExceptionFromTheCallbackReachesTheCaller) {
  for (int i = 0; i < 8; ++i) touch("d" + std::to_string(i) + "/f.txt");
  WalkOptions options;
  options.threads = 4;
  EXPECT_THROW(walk_files(root(), options, {},
                          [](const WalkEntry&) -> bool { throw std::runtime_error("boom"); }),
               std::runtime_error);
}

TEST_F(WalkTest, ManyThreadsFindTheSameAsOne) {
  Strings expected;
  for (int i = 0; i < 20; ++i) {
    for (int j = 0; j < 5; ++j) {
      const std::string name =
          "d" + std::to_string(i) + "/e" + std::to_string(j % 3) + "/f" + std::to_string(j);
      touch(name);
      expected.push_back(name);
    }
  }
  std::sort(expected.begin(), expected.end());
  for (const std::size_t threads : {1u, 2u, 8u}) {
    WalkOptions options;
    options.threads = threads;
    const Walked walked = walk(root(), options);
    EXPECT_EQ(walked.entries, expected) << threads << " threads";
    EXPECT_EQ(walked.summary.files, expected.size());
  }
}

}  // namespace
}  // namespace nib::tools
