// The bash splitter by hand: what each construct yields, and what it refuses to understand.
// The generated cases against bash itself are in shell_split_oracle_test.cpp.

#include "permissions/shell_split.hpp"

#include <gtest/gtest.h>

namespace nib::permissions {
namespace {

// Each simple command as the text rules match (its `command` words joined).
std::vector<std::string> parts(std::string_view line) {
  const ShellSplit split = split_command(line);
  EXPECT_TRUE(split.understood) << line << ": " << split.problem;
  std::vector<std::string> texts;
  for (const SimpleCommand& command : split.commands) texts.push_back(command.text());
  return texts;
}

std::string problem(std::string_view line) {
  const ShellSplit split = split_command(line);
  EXPECT_FALSE(split.understood) << line;
  EXPECT_TRUE(split.commands.empty());
  return split.problem;
}

using Texts = std::vector<std::string>;

TEST(ShellSplit, ListsPipelinesAndGroups) {
  EXPECT_EQ(parts("npm test"), Texts{"npm test"});
  EXPECT_EQ(parts("a && b || c; d & e"), (Texts{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(parts("a | b |& c"), (Texts{"a", "b", "c"}));
  EXPECT_EQ(parts("(cd x && make) > log; { a; b & }"), (Texts{"cd x", "make", "a", "b"}));
  EXPECT_EQ(parts("a\nb\n\n  # comment\nc # trailing"), (Texts{"a", "b", "c"}));
  EXPECT_EQ(parts("! a | b"), (Texts{"a", "b"}));
  EXPECT_EQ(parts("time -p make"), Texts{"make"});
  EXPECT_EQ(parts("a &&\n  b"), (Texts{"a", "b"}));
  EXPECT_EQ(parts("a \\\n  b"), Texts{"a b"});
  EXPECT_TRUE(parts("").empty());
  EXPECT_TRUE(parts("  # only a comment").empty());
}

TEST(ShellSplit, QuotesAreRemovedAsBashRemovesThem) {
  const ShellSplit split = split_command(R"(echo "a b" 'c"d' e\ f "x\"y\$z" $'t\tu\x41\101' $"s")");
  ASSERT_TRUE(split.understood) << split.problem;
  ASSERT_EQ(split.commands.size(), 1u);
  std::vector<std::string> words;
  for (const ShellWord& word : split.commands[0].words) {
    EXPECT_TRUE(word.literal()) << word.source;
    words.push_back(word.text);
  }
  EXPECT_EQ(words, (Texts{"echo", "a b", "c\"d", "e f", "x\"y$z", "t\tuAA", "s"}));
  EXPECT_EQ(split.commands[0].words[1].source, "\"a b\"");
}

TEST(ShellSplit, RunTimePartsAreOpaque) {
  const ShellSplit split = split_command("rm -rf $DIR/x \"${HOME}\" *.o ~/y {a,b} '*' [ab] [");
  ASSERT_TRUE(split.understood) << split.problem;
  const SimpleCommand& command = split.commands.at(0);
  std::vector<bool> literal;
  for (const ShellWord& word : command.words) literal.push_back(word.literal());
  EXPECT_EQ(literal,
            (std::vector<bool>{true, true, false, false, false, false, false, true, false, true}));
  EXPECT_EQ(command.words[2].text, "$DIR/x");
  EXPECT_EQ(command.words[2].opaque, (std::vector<bool>{true, true, true, true, false, false}));
  EXPECT_EQ(command.words[7].text, "*") << "a quoted star is a star";
}

TEST(ShellSplit, SubstitutionsAreCommandsOfTheirOwn) {
  EXPECT_EQ(parts("echo $(git rev-parse HEAD; date) `whoami` \"$(id -u)\""),
            (Texts{"git rev-parse HEAD", "date", "whoami", "id -u",
                   "echo $(git rev-parse HEAD; date) `whoami` $(id -u)"}));
  EXPECT_EQ(parts("diff <(sort a) >(tee b)"),
            (Texts{"sort a", "tee b", "diff <(sort a) >(tee b)"}));
  EXPECT_EQ(parts("x=$(rm -rf y)"), (Texts{"rm -rf y", ""}));
  EXPECT_EQ(parts("echo `echo \\`inner\\``"),
            (Texts{"inner", "echo `inner`", "echo `echo \\`inner\\``"}));
}

TEST(ShellSplit, RedirectionsAndHereDocuments) {
  const ShellSplit split = split_command(
      "cat <<EOF > out 2>&1\n$HOME body\nEOF\nsort < in 2>/dev/null <<<'x' >&2\n"
      "cat <<-'END'\n\t$(quoted)\n\tEND\n(a; b) >> log");
  ASSERT_TRUE(split.understood) << split.problem;
  ASSERT_EQ(split.commands.size(), 5u);
  const SimpleCommand& cat = split.commands[0];
  ASSERT_EQ(cat.redirections.size(), 3u);
  EXPECT_EQ(cat.redirections[1].op, ">");
  EXPECT_EQ(cat.redirections[2].fd, 2);
  EXPECT_TRUE(cat.writes_files());
  EXPECT_EQ(split.commands[1].text(), "sort");
  EXPECT_FALSE(split.commands[1].writes_files()) << "/dev/null and >&2 write no file";
  EXPECT_TRUE(split.commands[3].writes_files()) << "the group's >> applies to a";
  EXPECT_TRUE(split.commands[4].writes_files());
}

TEST(ShellSplit, UnquotedHereDocumentsWithSubstitutionsAreNotFollowed) {
  EXPECT_NE(problem("cat <<EOF\n$(rm -rf x)\nEOF").find("here-document"), std::string::npos);
  EXPECT_NE(problem("cat <<EOF\nnever closed").find("not closed"), std::string::npos);
}

TEST(ShellSplit, AssignmentsAndWrappersAreStripped) {
  EXPECT_EQ(parts("CI=1 FOO=\"a b\" npm test"), Texts{"npm test"});
  EXPECT_EQ(parts("timeout -s KILL 10 nice -n 5 nohup npm test"), Texts{"npm test"});
  EXPECT_EQ(parts("env -i -u X A=1 stdbuf -oL ionice -c3 make -j4"), Texts{"make -j4"});
  EXPECT_EQ(parts("nice -10 time -f %e command -p ls"), Texts{"ls"});
  EXPECT_EQ(parts("/usr/bin/timeout 5s exec setsid -w builtin echo x"), Texts{"echo x"});
  EXPECT_EQ(parts("find . | xargs -0 -n1 rm -f"),
            (Texts{"find .", "rm -f <arguments xargs reads>"}));
  EXPECT_EQ(parts("xargs"), Texts{"echo <arguments xargs reads>"});
  const ShellSplit sudo = split_command("sudo -u root -E timeout 5 rm -rf /tmp/x");
  ASSERT_TRUE(sudo.understood) << sudo.problem;
  EXPECT_EQ(sudo.commands[0].text(), "rm -rf /tmp/x");
  EXPECT_TRUE(sudo.commands[0].privileged);
  EXPECT_EQ(sudo.commands[0].wrappers, (Texts{"sudo -u root -E", "timeout 5"}));
  const ShellSplit xargs = split_command("xargs rm");
  EXPECT_FALSE(xargs.commands.at(0).command.back().literal()) << "the arguments are unknown";
}

TEST(ShellSplit, WrappersThatDoSomethingElseStayCommands) {
  EXPECT_EQ(parts("command -v git"), Texts{"command -v git"});
  EXPECT_EQ(parts("env"), Texts{"env"});
  EXPECT_EQ(parts("sudo -l"), Texts{"sudo -l"});
  EXPECT_EQ(parts("timeout"), Texts{"timeout"});
  EXPECT_EQ(parts("./timeout 5 rm x"), Texts{"./timeout 5 rm x"}) << "a project's own script";
  EXPECT_EQ(parts("exec 3>log"), Texts{""});
}

TEST(ShellSplit, SensitiveVariablesAreNeverStripped) {
  EXPECT_EQ(parts("LD_PRELOAD=x.so ls"), Texts{"LD_PRELOAD=x.so ls"});
  EXPECT_EQ(parts("A=1 PATH=.:$PATH sudo ls"), Texts{"PATH=.:$PATH sudo ls"});
  EXPECT_EQ(parts("env GIT_SSH_COMMAND=evil git fetch"), Texts{"GIT_SSH_COMMAND=evil git fetch"});
  EXPECT_TRUE(is_sensitive_variable("PATH"));
  EXPECT_TRUE(is_sensitive_variable("LD_LIBRARY_PATH"));
  EXPECT_FALSE(is_sensitive_variable("CI"));
}

TEST(ShellSplit, ShellScriptsAreSplitInside) {
  EXPECT_EQ(parts("bash -c 'npm test && rm -rf build'"), (Texts{"npm test", "rm -rf build"}));
  EXPECT_EQ(parts("sudo sh -ec \"echo 'a b' | tee f\" name"), (Texts{"echo a b", "tee f"}));
  EXPECT_EQ(parts("bash -o pipefail -c 'bash -c \"make\"'"), Texts{"make"});
  EXPECT_EQ(parts("bash script.sh"), Texts{"bash script.sh"});
  const ShellSplit sudo = split_command("sudo bash -c 'rm x'");
  EXPECT_TRUE(sudo.commands.at(0).privileged);
  EXPECT_EQ(sudo.commands.at(0).wrappers, (Texts{"sudo", "bash -c"}));
  EXPECT_NE(problem("bash -c \"$SCRIPT\"").find("only known when it runs"), std::string::npos);
  EXPECT_NE(problem("bash -c 'if x; then y; fi'").find("\"if\""), std::string::npos);
}

TEST(ShellSplit, WhatItDoesNotUnderstand) {
  for (const char* line : {"eval \"$X\"",
                           "trap 'rm x' EXIT",
                           "f() { rm x; }",
                           "if a; then b; fi",
                           "for i in 1; do a; done",
                           "while a; do b; done",
                           "case x in a) b;; esac",
                           "[[ -f x ]]",
                           "(( x++ ))",
                           "a=(1 2)",
                           "echo 'unclosed",
                           "echo \"unclosed",
                           "echo $(unclosed",
                           "echo `unclosed",
                           "a &&",
                           "a |",
                           "; a",
                           "a;;",
                           "( )",
                           "{ }",
                           "(a) b",
                           "echo ${x:-$(rm y)}",
                           "echo $(( $(rm y) ))",
                           "timeout --bogus 5 rm",
                           "sudo -Z rm",
                           "env -S 'rm x'",
                           "{fd}>x echo",
                           "coproc a",
                           "a & ;",
                           ")",
                           "time",
                           "echo \\",
                           "function f { a; }",
                           "a | ! b",
                           "x[1]=2 a"}) {
    const ShellSplit split = split_command(line);
    EXPECT_FALSE(split.understood) << line;
    EXPECT_FALSE(split.problem.empty()) << line;
  }
  EXPECT_NE(problem("eval rm").find("eval"), std::string::npos);
}

TEST(ShellSplit, LimitsKeepItBounded) {
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "( ";
  deep += "a";
  for (int i = 0; i < 100; ++i) deep += ")";
  EXPECT_NE(problem(deep).find("nests too deeply"), std::string::npos);
  std::string many;
  for (int i = 0; i < 2000; ++i) many += "a;";
  EXPECT_NE(problem(many).find("simple commands"), std::string::npos);
  EXPECT_NE(problem(std::string(70 * 1024, 'a')).find("longer than"), std::string::npos);
}

TEST(ShellSplit, SourceTextIsKept) {
  const ShellSplit split = split_command("  CI=1 npm test -- --watch  > log &&  ls");
  ASSERT_TRUE(split.understood);
  EXPECT_EQ(split.commands[0].source, "CI=1 npm test -- --watch  > log");
  EXPECT_EQ(split.commands[0].assignment_count, 1u);
  EXPECT_EQ(split.commands[1].source, "ls");
  SimpleCommand assignment;
  assignment.words = {ShellWord::plain("X=1")};
  assignment.assignment_count = 1;
  EXPECT_TRUE(assignment.runs_nothing());
}

}  // namespace
}  // namespace nib::permissions
