// The built-in read-only classification.

#include "permissions/read_only.hpp"

#include <gtest/gtest.h>

namespace nib::permissions {
namespace {

bool read_only(std::string_view line) {
  const ShellSplit split = split_command(line);
  EXPECT_TRUE(split.understood && split.commands.size() == 1) << line;
  return split.commands.size() == 1 && is_read_only(split.commands[0]);
}

TEST(ReadOnly, ListedReadersWithoutWrites) {
  for (const char* line : {"ls -la",
                           "cat a b",
                           "head -n 5 x",
                           "tail -f log",
                           "wc -l *.c",
                           "grep -rn foo src",
                           "rg -n foo",
                           "find . -name '*.c'",
                           "git status",
                           "git log --oneline -5",
                           "git diff HEAD~1",
                           "git show HEAD",
                           "git branch",
                           "git branch -a",
                           "git branch --list 'f*'",
                           "git tag",
                           "git -C sub status",
                           "pwd",
                           "echo hi",
                           "which git",
                           "file x",
                           "stat x",
                           "du -sh .",
                           "df -h",
                           "ls 2>/dev/null",
                           "grep x y 2>&1",
                           "timeout 5 cat x",
                           "X=1",
                           "git remote -v",
                           "git stash list",
                           "git config --get user.name",
                           "sort x",
                           "date"}) {
    EXPECT_TRUE(read_only(line)) << line;
  }
}

TEST(ReadOnly, AnythingThatMayWriteOrRunIsNot) {
  for (const char* line : {"ls > files.txt",
                           "echo x >> log",
                           "tee b",
                           "find . -delete",
                           "find . -exec rm {} \\;",
                           "find . -fprint out",
                           "find . $ACTION",
                           "rg --pre ./script x",
                           "sort -o out x",
                           "git branch new-feature",
                           "git branch -D old",
                           "git tag v1",
                           "git push",
                           "git commit -m x",
                           "git -c core.pager=evil log",
                           "git diff --output=x",
                           "git remote add o url",
                           "rm x",
                           "sudo ls",
                           "LD_PRELOAD=x.so ls",
                           "$CMD",
                           "make",
                           "sed -i s/a/b/ f",
                           "date -s 2020-01-01",
                           "git config user.name x",
                           "npm test"}) {
    EXPECT_FALSE(read_only(line)) << line;
  }
}

}  // namespace
}  // namespace nib::permissions
