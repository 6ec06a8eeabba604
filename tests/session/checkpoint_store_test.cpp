// The checkpoint store (session/checkpoint_store.hpp): real commands change a tree, and a
// restore gives back what was there, judged on the files themselves (bytes, symbolic links,
// the executable bit), while ignored files and the user's own repository are left alone.

#include "session/checkpoint_store.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"

namespace nib::session {
namespace {

namespace fs = std::filesystem;
using testing::file_contents;
using testing::TempDir;

// Everything under `root` but the skipped top-level names: each path with what it is (a
// file's bytes and executable bit, a link's target, a directory), so that two states compare
// whole.
std::map<std::string, std::string> tree_state(const fs::path& root,
                                              const std::vector<std::string>& skipped = {".git"}) {
  std::map<std::string, std::string> state;
  for (auto entry = fs::recursive_directory_iterator(root);
       entry != fs::recursive_directory_iterator(); ++entry) {
    const std::string relative = entry->path().lexically_relative(root).generic_string();
    if (entry.depth() == 0 &&
        std::find(skipped.begin(), skipped.end(), relative) != skipped.end()) {
      entry.disable_recursion_pending();
      continue;
    }
    if (entry->is_symlink()) {
      state[relative] = "link to " + fs::read_symlink(entry->path()).string();
    } else if (entry->is_directory()) {
      state[relative] = "directory";
    } else {
      const bool executable =
          (fs::status(entry->path()).permissions() & fs::perms::owner_exec) != fs::perms::none;
      state[relative] = (executable ? "executable: " : "file: ") + file_contents(entry->path());
    }
  }
  return state;
}

void run(const fs::path& directory, const std::string& command) {
  const std::string line =
      "cd '" + directory.string() + "' && { " + command + "; } >/dev/null 2>&1";
  ASSERT_EQ(std::system(line.c_str()), 0) << command;
}

class CheckpointStoreTest : public ::testing::Test {
 protected:
  fs::path tree() const { return dir_.path() / "tree"; }
  CheckpointStore open() {
    auto store = CheckpointStore::open(dir_.path() / "store", tree());
    EXPECT_TRUE(store.ok()) << store.error();
    return std::move(store.value());
  }
  Checkpoint take(CheckpointStore& store, const std::string& label) {
    auto checkpoint = store.take(label);
    EXPECT_TRUE(checkpoint.ok()) << checkpoint.error();
    return checkpoint.ok() ? checkpoint.value() : Checkpoint{};
  }

  TempDir dir_;
};

// What commands do to a tree — sed -i, rm -rf of a directory, a rename, chmod +x, a new symbolic
// link, a file replaced by a directory, a new file — is listed and taken back; a build output the
// tree ignores stays; and the restore itself can be undone.
TEST_F(CheckpointStoreTest, ARestoreTakesBackWhatCommandsChanged) {
  dir_.write("tree/.gitignore", "build/\n");
  dir_.write("tree/src/main.c", "int main() {\n  return 1;\n}\n");
  dir_.write("tree/docs/a.md", "# A\n");
  dir_.write("tree/docs/deep/b.md", "# B\n");
  dir_.write("tree/old.txt", "old name\n");
  dir_.write("tree/run.sh", "echo run\n");
  dir_.write("tree/thing", "a file\n");
  dir_.write("tree/crlf.txt", "one\r\ntwo\r\n");
  const auto original = tree_state(tree());
  CheckpointStore store = open();
  const Checkpoint before = take(store, "prompt 1");

  run(tree(), "sed -i 's/return 1/return 0/' src/main.c");
  run(tree(), "rm -rf docs");
  run(tree(), "mv old.txt new.txt");
  run(tree(), "chmod +x run.sh");
  run(tree(), "ln -s src/main.c link.c");
  run(tree(), "rm thing && mkdir thing && echo inside > thing/inner.txt");
  run(tree(), "printf 'x\\r\\n' >> crlf.txt");
  run(tree(), "mkdir -p build && echo output > build/out.o");
  const auto changed = tree_state(tree());
  const Checkpoint after = take(store, "prompt 2");

  const auto changes = store.changes(before.id, after.id);
  ASSERT_TRUE(changes.ok()) << changes.error();
  std::map<std::string, FileChange> by_path;
  for (const FileChange& change : changes.value()) by_path[change.path] = change;
  EXPECT_EQ(by_path.count("build/out.o"), 0u) << "ignored";
  ASSERT_EQ(by_path.count("src/main.c"), 1u);
  EXPECT_EQ(by_path["src/main.c"].kind, FileChange::Kind::kModified);
  EXPECT_EQ(by_path["src/main.c"].added_lines, 1u);
  EXPECT_EQ(by_path["src/main.c"].removed_lines, 1u);
  EXPECT_EQ(by_path["docs/deep/b.md"].kind, FileChange::Kind::kDeleted);
  EXPECT_EQ(by_path["old.txt"].kind, FileChange::Kind::kDeleted);
  EXPECT_EQ(by_path["new.txt"].kind, FileChange::Kind::kAdded);
  EXPECT_EQ(by_path.count("run.sh"), 1u) << "the mode changed";
  EXPECT_EQ(by_path["link.c"].kind, FileChange::Kind::kAdded);
  EXPECT_EQ(by_path["thing/inner.txt"].kind, FileChange::Kind::kAdded);

  const auto restored = store.restore(before.id);
  ASSERT_TRUE(restored.ok()) << restored.error();
  auto expected = original;
  expected["build"] = "directory";
  expected["build/out.o"] = "file: output\n";
  EXPECT_EQ(tree_state(tree()), expected);

  // The restore checkpointed the tree first: restoring that gives the changed tree back.
  ASSERT_TRUE(store.restore(restored.value().id).ok());
  EXPECT_EQ(tree_state(tree()), changed);
}

// The store is nib's own: the user's repository (its index, refs, config, hooks) is unchanged
// by taking and restoring, and git sees the same status afterwards.
TEST_F(CheckpointStoreTest, TheUsersRepositoryIsLeftAlone) {
  dir_.write("tree/a.txt", "one\n");
  run(tree(),
      "git init -q && git add a.txt && git -c user.name=t -c user.email=t@t commit -qm one");
  const auto repository = tree_state(tree() / ".git", {});
  CheckpointStore store = open();
  const Checkpoint first = take(store, "prompt 1");
  dir_.write("tree/a.txt", "two\n");
  dir_.write("tree/b.txt", "new\n");
  take(store, "prompt 2");
  ASSERT_TRUE(store.restore(first.id).ok());
  EXPECT_EQ(file_contents(tree() / "a.txt"), "one\n");
  EXPECT_FALSE(fs::exists(tree() / "b.txt"));
  EXPECT_EQ(tree_state(tree() / ".git", {}), repository);
  EXPECT_FALSE(fs::exists(tree() / ".git" / "refs" / "nib"));
}

// Bytes are recorded as they are, whatever the tree's attributes ask of git; files over the
// limit are left out and named; an unchanged tree gives no changes; an unknown checkpoint is
// an error naming it.
TEST_F(CheckpointStoreTest, BytesAsTheyAreLargeFilesNamedAndUnknownIdsRefused) {
  dir_.write("tree/.gitattributes", "* text eol=crlf\n");
  dir_.write("tree/lf.txt", "lf\nonly\n");
  dir_.write("tree/big.bin", std::string(kMaxCheckpointFileBytes + 1, 'b'));
  CheckpointStore store = open();
  const Checkpoint first = take(store, "prompt 1");
  EXPECT_EQ(first.skipped, std::vector<std::string>{"big.bin"});
  const Checkpoint same = take(store, "prompt 2");
  const auto none = store.changes(first.id, same.id);
  ASSERT_TRUE(none.ok()) << none.error();
  EXPECT_TRUE(none.value().empty());

  dir_.write("tree/lf.txt", "changed\n");
  take(store, "prompt 3");
  ASSERT_TRUE(store.restore(first.id).ok());
  EXPECT_EQ(file_contents(tree() / "lf.txt"), "lf\nonly\n");
  EXPECT_TRUE(fs::exists(tree() / "big.bin")) << "a file left out is left alone";

  const auto unknown = store.restore("0123456789abcdef0123456789abcdef01234567");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("no checkpoint 0123456789abcdef"), std::string::npos)
      << unknown.error();
}

// Over its cap the store drops its oldest checkpoints and what only they held; the newest and
// what it holds stay restorable.
TEST_F(CheckpointStoreTest, GarbageCollectionDropsTheOldestCheckpoints) {
  std::mt19937 random(7);
  std::vector<Checkpoint> taken;
  fs::create_directories(tree());
  CheckpointStore store = open();
  for (int round = 0; round < 6; ++round) {
    std::string noise(200 * 1024, '\0');
    for (char& byte : noise) byte = static_cast<char>(random());  // does not compress
    dir_.write("tree/data.bin", noise);
    dir_.write("tree/keep.txt", "round " + std::to_string(round) + "\n");
    taken.push_back(take(store, "round " + std::to_string(round)));
  }
  const std::uint64_t before = store.size_on_disk();
  EXPECT_GT(before, 6u * 200 * 1024);
  const auto collected = store.collect_garbage(before / 2);
  ASSERT_TRUE(collected.ok()) << collected.error();
  EXPECT_GT(collected.value().dropped_checkpoints, 0u);
  EXPECT_LE(collected.value().bytes_after, before / 2);
  EXPECT_EQ(collected.value().bytes_after, store.size_on_disk());
  EXPECT_FALSE(store.has(taken.front().id)) << "the oldest went first";
  ASSERT_TRUE(store.has(taken.back().id));

  dir_.write("tree/keep.txt", "changed\n");
  const auto restored = store.restore(taken.back().id);
  ASSERT_TRUE(restored.ok()) << restored.error();
  EXPECT_EQ(file_contents(tree() / "keep.txt"), "round 5\n");
  // However small the cap, the newest checkpoint (the tree before that restore) stays.
  ASSERT_TRUE(store.collect_garbage(1).ok());
  EXPECT_TRUE(store.has(restored.value().id));
  EXPECT_FALSE(store.has(taken.back().id));
}

// nib's own data inside the tree (the store, session files) is never recorded, so a restore
// cannot turn back a session or the store itself.
TEST_F(CheckpointStoreTest, NibsOwnDataInsideTheTreeIsLeftOut) {
  dir_.write("tree/a.txt", "one\n");
  dir_.write("tree/home/data/nib/sessions/s.jsonl", "line 1\n");
  auto opened = CheckpointStore::open(tree() / "home/data/nib/checkpoints/x", tree(),
                                      {tree() / "home/data/nib"});
  ASSERT_TRUE(opened.ok()) << opened.error();
  CheckpointStore store = std::move(opened.value());
  const Checkpoint first = take(store, "prompt 1");
  dir_.write("tree/a.txt", "two\n");
  dir_.write("tree/home/data/nib/sessions/s.jsonl", "line 1\nline 2\n");
  const Checkpoint second = take(store, "prompt 2");
  const auto changes = store.changes(first.id, second.id);
  ASSERT_TRUE(changes.ok()) << changes.error();
  ASSERT_EQ(changes.value().size(), 1u);
  EXPECT_EQ(changes.value()[0].path, "a.txt");
  ASSERT_TRUE(store.restore(first.id).ok());
  EXPECT_EQ(file_contents(tree() / "a.txt"), "one\n");
  EXPECT_EQ(file_contents(tree() / "home/data/nib/sessions/s.jsonl"), "line 1\nline 2\n");
}

// What a kill -9 in the middle of a checkpoint leaves (libgit2's lock files) and a damaged index
// do not stop the next checkpoint; a checkpoint whose files are missing from the store is
// refused before anything is written.
TEST_F(CheckpointStoreTest, KilledWritersAndDamageAreSurvivedOrRefusedWithoutHarm) {
  dir_.write("tree/a.txt", "one\n");
  dir_.write("tree/b.txt", "bee\n");
  const fs::path store_dir = dir_.path() / "store";
  Checkpoint first;
  {
    CheckpointStore store = open();
    first = take(store, "prompt 1");
  }
  dir_.write("store/index.lock", "left by a killed nib");
  dir_.write("store/refs/nib/newest.lock", "left by a killed nib");
  dir_.write("store/index", "not an index");
  dir_.write("tree/a.txt", "two\n");
  CheckpointStore store = open();
  const auto second = store.take("prompt 2");
  ASSERT_TRUE(second.ok()) << second.error();
  const auto changes = store.changes(first.id, second.value().id);
  ASSERT_TRUE(changes.ok()) << changes.error();
  ASSERT_EQ(changes.value().size(), 1u);
  EXPECT_EQ(changes.value()[0].path, "a.txt");

  // Damage: the blob of b.txt (its id as git names it) goes missing.
  std::string found;
  if (FILE* pipe = popen("printf 'bee\\n' | git hash-object --stdin", "r")) {
    char line[64] = {};
    if (fgets(line, sizeof line, pipe) != nullptr) found = line;
    pclose(pipe);
  }
  ASSERT_GE(found.size(), 40u);
  fs::remove(store_dir / "objects" / found.substr(0, 2) / found.substr(2, 38));
  dir_.write("tree/b.txt", "changed\n");
  const auto refused = store.restore(first.id);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("damaged"), std::string::npos) << refused.error();
  EXPECT_EQ(file_contents(tree() / "a.txt"), "two\n") << "nothing was written";
  EXPECT_EQ(file_contents(tree() / "b.txt"), "changed\n");
}

// A file rewritten with as many bytes within one tick of the file system's clock keeps its
// times and size: the checkpoint after a quick rewrite still records the new bytes. (Kernels
// whose file times are fine-grained when looked at, 6.13 on, show the rewrite anyway; on
// coarse-grained ones, Debian 12's, only the racy check does.)
TEST_F(CheckpointStoreTest, AQuickRewriteOfTheSameSizeIsRecorded) {
  dir_.write("tree/a.txt", "one\n");
  CheckpointStore store = open();
  take(store, "prompt 1");
  dir_.write("tree/a.txt", "two\n");
  const Checkpoint second = take(store, "prompt 2");
  dir_.write("tree/a.txt", "six\n");
  const Checkpoint third = take(store, "prompt 3");
  const auto changes = store.changes(second.id, third.id);
  ASSERT_TRUE(changes.ok()) << changes.error();
  ASSERT_EQ(changes.value().size(), 1u);
  ASSERT_TRUE(store.restore(second.id).ok());
  EXPECT_EQ(file_contents(tree() / "a.txt"), "two\n");
}

// kill -9 in the middle of a restore: the tree is left half restored, and both the checkpoint
// restored to and the tree as it was before can still be restored whole.
TEST_F(CheckpointStoreTest, AKillDuringARestoreLosesNothing) {
  constexpr int kFiles = 300;
  for (int file = 0; file < kFiles; ++file) {
    dir_.write("tree/d" + std::to_string(file / 100) + "/f" + std::to_string(file) + ".txt",
               "first " + std::to_string(file) + "\n");
  }

  const auto first_state = tree_state(tree());
  Checkpoint first;
  Checkpoint second;
  {
    CheckpointStore store = open();
    first = take(store, "prompt 1");
    run(tree(), "for f in d*/*.txt; do echo second > $f; done; echo added > d0/new.txt");
    second = take(store, "prompt 2");
  }
  const auto second_state = tree_state(tree());
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto store = CheckpointStore::open(dir_.path() / "store", tree());
    if (store.ok()) (void)store.value().restore(first.id);
    _exit(0);
  }
  // Kill as soon as the restore has begun writing (or after it, when it was quicker).
  while (file_contents(tree() / "d0/f0.txt") != "first 0\n" &&
         file_contents(tree() / ("d2/f" + std::to_string(kFiles - 1) + ".txt")) !=
             "first " + std::to_string(kFiles - 1) + "\n") {
    int status = 0;
    if (waitpid(child, &status, WNOHANG) == child) break;
  }
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);

  CheckpointStore store = open();
  ASSERT_TRUE(store.restore(first.id).ok());
  EXPECT_EQ(tree_state(tree()), first_state);
  ASSERT_TRUE(store.restore(second.id).ok());
  EXPECT_EQ(tree_state(tree()), second_state);
}

// Keeping files: a restore leaves the named ones as they are and restores the rest.
TEST_F(CheckpointStoreTest, ARestoreLeavesTheFilesToKeep) {
  dir_.write("tree/a.txt", "a1\n");
  dir_.write("tree/b.txt", "b1\n");
  CheckpointStore store = open();
  const Checkpoint first = take(store, "prompt 1");
  dir_.write("tree/a.txt", "a2\n");
  dir_.write("tree/b.txt", "b2\n");
  dir_.write("tree/c.txt", "c2\n");
  ASSERT_TRUE(store.restore(first.id, {"b.txt", "c.txt"}).ok());
  EXPECT_EQ(file_contents(tree() / "a.txt"), "a1\n");
  EXPECT_EQ(file_contents(tree() / "b.txt"), "b2\n");
  EXPECT_EQ(file_contents(tree() / "c.txt"), "c2\n");
}

// A checkpoint that looks only at the directories the kernel said changed records what one that
// looks at the whole tree records (the oracle: a store opened afresh, whose first checkpoint
// looks at everything), through random rounds of commands: new nested directories, edits,
// deletions, rm -rf, renamed files and directories, chmod, symbolic links, ignored output.
TEST_F(CheckpointStoreTest, WatchedCheckpointsRecordWhatAWholeLookRecords) {
  dir_.write("tree/.gitignore", "out/\n");
  for (int d = 0; d < 6; ++d) {
    for (int f = 0; f < 5; ++f) {
      dir_.write("tree/d" + std::to_string(d) + "/f" + std::to_string(f) + ".txt", "start\n");
    }
  }
  CheckpointStore store = open();
  take(store, "round 0");
  std::mt19937 random(28);
  const std::vector<std::string> commands = {
      "mkdir -p d{a}/new{b}/deeper && echo {b} > d{a}/new{b}/deeper/n.txt",
      "echo more{b} >> d{a}/f{b}.txt",
      "rm -f d{a}/f{b}.txt",
      "rm -rf d{a}",
      "mv d{a}/f{b}.txt d{a}/moved{b}.txt",
      "mv d{a} renamed{b}",
      "chmod +x d{a}/f{b}.txt",
      "ln -sf f{b}.txt d{a}/link{b}",
      "mkdir -p d{a} && echo top{b} > d{a}/f{b}.txt",
      "mkdir -p out/d{a} && echo ignored > out/d{a}/x.o",
      "echo root{b} > root{b}.txt",
  };
  for (int round = 1; round <= 12; ++round) {
    SCOPED_TRACE(round);
    for (int step = 0; step < 4; ++step) {
      std::string command = commands[random() % commands.size()];
      const std::string a = std::to_string(random() % 6);
      const std::string b = std::to_string(random() % 5);
      for (std::size_t at; (at = command.find("{a}")) != std::string::npos;) {
        command.replace(at, 3, a);
      }
      for (std::size_t at; (at = command.find("{b}")) != std::string::npos;) {
        command.replace(at, 3, b);
      }
      run(tree(), command + " || true");
    }
    const Checkpoint watched = take(store, "round " + std::to_string(round));
    CheckpointStore fresh = open();
    const Checkpoint whole = take(fresh, "whole look");
    const auto differences = store.changes(watched.id, whole.id);
    ASSERT_TRUE(differences.ok()) << differences.error();
    for (const FileChange& change : differences.value()) {
      ADD_FAILURE() << "round " << round << ": " << change.path << " differs";
    }
  }
}

}  // namespace
}  // namespace nib::session
