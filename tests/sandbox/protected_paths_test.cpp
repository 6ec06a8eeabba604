// The protected paths beyond the tree's own .git/hooks and .git/config: nested repositories
// (submodules, vendored checkouts, not those in ignored directories) and the directory
// core.hooksPath names, in real git repositories made by git, both as ProtectedPaths lists
// them and as a sandboxed command meets them. Git's global and system config are left out, so
// the user's own config changes nothing here.

#include "sandbox/protected_paths.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sandbox/sandbox_test_support.hpp"
#include "workspace/nested_repositories.hpp"
#include "workspace/protected_tree.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;
using process::CommandResult;
using workspace::find_nested_repositories;
using workspace::kMaxNestedRepositories;
using workspace::kMaxScannedDirectories;
using workspace::NestedRepositories;

bool lists(const std::vector<fs::path>& paths, const fs::path& path) {
  return std::find(paths.begin(), paths.end(), path) != paths.end();
}

class ProtectedPathsTest : public testing::SandboxedCommandTest {
 protected:
  // `command` run unconfined in the tree, as the user would; fails the test when it fails.
  void git_outside(const std::string& command) {
    const CommandResult result = testing::run_with(nullptr, command, tree_.tree());
    ASSERT_EQ(result.end, process::CommandEnd::kExited) << result.error;
    ASSERT_EQ(result.exit_code, 0) << command << ": " << result.stderr_capture.tail();
  }

  // Makes the tree a repository with one commit.
  void make_repository() {
    git_outside("git init -q && echo x > file && git add file && git commit -qm first");
  }

  // The paths bound read-only, listed by an object that is gone again (its placeholders too).
  std::vector<fs::path> protected_paths() {
    return ProtectedPaths(std::make_shared<workspace::ProtectedTree>(tree_.tree()))
        .prepare()
        .read_only;
  }

  testing::ScopedEnv no_global_config_{"GIT_CONFIG_GLOBAL", "/dev/null"};
  testing::ScopedEnv no_system_config_{"GIT_CONFIG_NOSYSTEM", "1"};
  testing::ScopedEnv author_{"GIT_AUTHOR_NAME", "nib"};
  testing::ScopedEnv author_email_{"GIT_AUTHOR_EMAIL", "nib@example.com"};
  testing::ScopedEnv committer_{"GIT_COMMITTER_NAME", "nib"};
  testing::ScopedEnv committer_email_{"GIT_COMMITTER_EMAIL", "nib@example.com"};
};

TEST_F(ProtectedPathsTest, ASubmodulesGitDirectoryAndGitFileAreReadOnly) {
  const std::string origin = (tree_.outside() / "json").string();
  git_outside("git init -q " + origin + " && git -C " + origin + " commit -q --allow-empty -m a");
  make_repository();
  git_outside("git -c protocol.file.allow=always submodule add -q " + origin +
              " libs/json && git commit -qm submodule");
  const fs::path module = tree_.tree() / ".git/modules/libs/json";
  ASSERT_TRUE(fs::is_regular_file(module / "config"));
  const std::vector<fs::path> paths = protected_paths();
  EXPECT_TRUE(lists(paths, module / "hooks"));
  EXPECT_TRUE(lists(paths, module / "config"));
  EXPECT_TRUE(lists(paths, tree_.tree() / "libs/json/.git"));

  for (const char* target : {".git/modules/libs/json/hooks/post-checkout",
                             ".git/modules/libs/json/config", "libs/json/.git"}) {
    EXPECT_NE(exit_code(run(std::string("echo planted >> ") + target)), 0) << target;
  }
  EXPECT_FALSE(fs::exists(module / "hooks/post-checkout"));
  // The submodule works inside as outside: its commits go into its git directory.
  const CommandResult commit = run("cd libs/json && echo y > y && git add y && git commit -qm y");
  EXPECT_EQ(exit_code(commit), 0) << commit.stderr_capture.tail();
}

TEST_F(ProtectedPathsTest, AVendoredRepositorysHooksAndConfigAreReadOnly) {
  make_repository();
  git_outside("git init -q third_party/zlib");
  const fs::path git = tree_.tree() / "third_party/zlib/.git";
  const std::vector<fs::path> paths = protected_paths();
  EXPECT_TRUE(lists(paths, git / "hooks"));
  EXPECT_TRUE(lists(paths, git / "config"));

  EXPECT_NE(exit_code(run("echo planted > third_party/zlib/.git/hooks/pre-commit")), 0);
  EXPECT_NE(exit_code(run("git -C third_party/zlib config core.fsmonitor planted")), 0);
  EXPECT_FALSE(fs::exists(git / "hooks/pre-commit"));
  EXPECT_EQ(testing::file_contents(git / "config").find("planted"), std::string::npos);
}

TEST_F(ProtectedPathsTest, ARepositoryInAnIgnoredDirectoryStaysDeletable) {
  make_repository();
  std::ofstream(tree_.tree() / ".gitignore") << "/build/\n";
  git_outside("git init -q build/_deps/zlib-src");
  EXPECT_FALSE(lists(protected_paths(), tree_.tree() / "build/_deps/zlib-src/.git/hooks"));
  const CommandResult removed = run("rm -rf build");
  EXPECT_EQ(exit_code(removed), 0) << removed.stderr_capture.tail();
  EXPECT_FALSE(fs::exists(tree_.tree() / "build"));
}

TEST_F(ProtectedPathsTest, TheHooksPathDirectoryIsReadOnlyAndMadeWhenMissing) {
  make_repository();
  git_outside("git config core.hooksPath .husky");
  EXPECT_TRUE(lists(protected_paths(), tree_.tree() / ".husky"));
  EXPECT_NE(exit_code(run("mkdir -p .husky && echo planted > .husky/pre-commit")), 0);
  EXPECT_FALSE(fs::exists(tree_.tree() / ".husky/pre-commit"));
  sandbox_.reset();  // nib's exit: the placeholder goes
  EXPECT_FALSE(fs::exists(tree_.tree() / ".husky"));
}

TEST_F(ProtectedPathsTest, AHooksPathBelowMissingDirectoriesIsMadeWithThem) {
  make_repository();
  git_outside("git config core.hooksPath tools/git/hooks");
  EXPECT_NE(exit_code(run("mkdir -p tools/git/hooks && echo x > tools/git/hooks/pre-push")), 0);
  sandbox_.reset();
  EXPECT_FALSE(fs::exists(tree_.tree() / "tools"));
}

TEST_F(ProtectedPathsTest, AProtectedPathCannotBeMovedAwayWithItsParents) {
  make_repository();
  git_outside("git init -q third_party/zlib && git config core.hooksPath tools/git/hooks");
  const ProtectedMounts mounts =
      ProtectedPaths(std::make_shared<workspace::ProtectedTree>(tree_.tree())).prepare();
  const std::vector<fs::path> pinned = {tree_.tree() / ".git",
                                        tree_.tree() / "third_party",
                                        tree_.tree() / "third_party/zlib",
                                        tree_.tree() / "third_party/zlib/.git",
                                        tree_.tree() / "tools",
                                        tree_.tree() / "tools/git"};
  for (const fs::path& path : pinned) EXPECT_TRUE(lists(mounts.pinned, path)) << path;

  // Renaming a mount point fails; mv then copies (a pinned directory is another mount) and
  // cannot remove the original. The copy is the command's own; the original stays in place.
  for (const char* directory :
       {".git", "third_party", "third_party/zlib", "third_party/zlib/.git", "tools"}) {
    const CommandResult moved =
        run(std::string("mv ") + directory + " moved; status=$?; rm -rf moved; exit $status");
    EXPECT_NE(exit_code(moved), 0) << directory;
    EXPECT_TRUE(fs::is_directory(tree_.tree() / directory)) << directory;
  }
  EXPECT_TRUE(fs::is_directory(tree_.tree() / ".git/hooks"));
  EXPECT_TRUE(fs::is_regular_file(tree_.tree() / "third_party/zlib/.git/config"));
  EXPECT_NE(exit_code(run("echo planted > third_party/zlib/.git/hooks/pre-commit")), 0);
  // What a pinned directory holds stays writable: git works in both repositories.
  const CommandResult commits =
      run("echo z > third_party/zlib/z && git -C third_party/zlib add z && "
          "git -C third_party/zlib commit -qm z && echo y > y && git add y && git commit -qm y");
  EXPECT_EQ(exit_code(commits), 0) << commits.stderr_capture.tail();
}

TEST_F(ProtectedPathsTest, AnExistingHooksPathDirectoryKeepsItsHooks) {
  make_repository();
  fs::create_directories(tree_.tree() / ".githooks");
  std::ofstream(tree_.tree() / ".githooks/pre-commit") << "#!/bin/sh\nexit 0\n";
  git_outside("git config core.hooksPath .githooks");
  EXPECT_NE(exit_code(run("echo planted >> .githooks/pre-commit")), 0);
  EXPECT_NE(exit_code(run("echo planted > .githooks/post-merge")), 0);
  EXPECT_EQ(testing::file_contents(tree_.tree() / ".githooks/pre-commit"), "#!/bin/sh\nexit 0\n");
  EXPECT_FALSE(fs::exists(tree_.tree() / ".githooks/post-merge"));
}

TEST_F(ProtectedPathsTest, AGitFilePointingIntoTheTreeProtectsThatGitDirectory) {
  git_outside("git init -q --bare .bare && echo 'gitdir: ./.bare' > .git");
  const std::vector<fs::path> paths = protected_paths();
  EXPECT_TRUE(lists(paths, tree_.tree() / ".bare/hooks"));
  EXPECT_TRUE(lists(paths, tree_.tree() / ".bare/config"));
  EXPECT_NE(exit_code(run("echo planted > .bare/hooks/pre-commit")), 0);
}

TEST_F(ProtectedPathsTest, AHooksPathOutsideTheTreeIsNotBoundAgain) {
  make_repository();
  git_outside("git config core.hooksPath " + tree_.outside().string());
  for (const fs::path& path : protected_paths()) {
    EXPECT_EQ(path.string().find(tree_.outside().string()), std::string::npos) << path;
  }
}

// Where the tree is no repository, a .git written by hand would become one git obeys: the file
// tools are asked about anything at or below a `.git`, in the tree or a directory of it.
TEST(ProtectedTreeTest, AnythingAtOrBelowAGitNameIsProtectedWhetherOrNotItExists) {
  testing::SandboxTree tree;
  const workspace::ProtectedTree protected_tree(tree.tree());
  for (const char* path : {".git", ".git/config", ".git/HEAD", "sub/.git/hooks/pre-commit"}) {
    EXPECT_TRUE(protected_tree.protection(tree.tree() / path)) << path;
  }
  for (const char* path : {"src/main.c", ".gitignore", "git/config", ".github/workflows/ci.yml"}) {
    EXPECT_FALSE(protected_tree.protection(tree.tree() / path)) << path;
  }
  EXPECT_FALSE(protected_tree.protection(tree.outside() / ".git/config"));
}

TEST(NestedRepositoriesTest, TheScanKeepsAtMostItsLimitOfRepositoriesAndSaysSo) {
  const testing::SandboxTree tree;
  for (std::size_t i = 0; i <= kMaxNestedRepositories; ++i) {
    fs::create_directories(tree.tree() / ("vendor/r" + std::to_string(i)) / ".git");
  }
  const NestedRepositories found = find_nested_repositories(tree.tree());
  EXPECT_EQ(found.git_entries.size(), kMaxNestedRepositories);
  EXPECT_TRUE(found.truncated);
}

TEST(NestedRepositoriesTest, TheScanReadsAtMostItsBudgetOfDirectoriesBreadthFirst) {
  const testing::SandboxTree tree;
  fs::create_directories(tree.tree() / "shallow/.git");
  for (std::size_t i = 0; i < kMaxScannedDirectories; ++i) {
    fs::create_directories(tree.tree() / "many" / std::to_string(i));
  }
  fs::create_directories(tree.tree() / "many/0/deep/.git");
  const NestedRepositories found = find_nested_repositories(tree.tree());
  EXPECT_TRUE(found.truncated);
  EXPECT_EQ(found.git_entries, std::vector<fs::path>{tree.tree() / "shallow/.git"});
}

TEST(NestedRepositoriesTest, NoGitDirectoryIsEnteredAndNoLinkFollowed) {
  const testing::SandboxTree tree;
  fs::create_directories(tree.tree() / ".git/objects/ab/.git");
  fs::create_directories(tree.tree() / "a/.git/hooks/inner/.git");
  fs::create_directories(tree.outside() / "linked/.git");
  fs::create_directory_symlink(tree.outside() / "linked", tree.tree() / "link");
  const NestedRepositories found = find_nested_repositories(tree.tree());
  EXPECT_EQ(found.git_entries, std::vector<fs::path>{tree.tree() / "a/.git"});
  EXPECT_FALSE(found.truncated);
}

}  // namespace
}  // namespace nib::sandbox
