#include "extensions/command_expansion.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/spawn.hpp"
#include "support/temp_dir.hpp"

namespace nib::extensions {
namespace {

using Words = std::vector<std::string>;

// The commands format: $1 is the first word.
std::string one_based(std::string_view body, std::string_view arguments) {
  return substitute_arguments(body, arguments, Positions::kOneBased);
}

TEST(CommandExpansionTest, SplitsArgumentsAsAShellDoes) {
  EXPECT_EQ(split_arguments("456 high alice"), (Words{"456", "high", "alice"}));
  EXPECT_EQ(split_arguments("  spaced \t out\n"), (Words{"spaced", "out"}));
  EXPECT_EQ(split_arguments("\"hello world\" second"), (Words{"hello world", "second"}));
  EXPECT_EQ(split_arguments("'it''s' \"say \\\"hi\\\"\""), (Words{"its", "say \"hi\""}));
  EXPECT_EQ(split_arguments("a\"b c\"d"), (Words{"ab cd"}));
  EXPECT_EQ(split_arguments("'a\\b' \"c\\d\" e\\ f"), (Words{"a\\b", "c\\d", "e f"}));
  EXPECT_EQ(split_arguments("\"\" ''"), (Words{"", ""}));
  EXPECT_EQ(split_arguments("\"unclosed quote"), (Words{"unclosed quote"}));
  EXPECT_EQ(split_arguments("trailing\\"), (Words{"trailing\\"}));
  EXPECT_EQ(split_arguments("$HOME `x`"), (Words{"$HOME", "`x`"}));
  EXPECT_TRUE(split_arguments("").empty());
}

// The words bash makes of `arguments`, one per line.
std::string bash_words(std::string_view arguments) {
  const testing::SpawnedProcess bash = testing::spawn_with_pipes(
      {"bash", "--norc", "-c",
       "for w in " + std::string(arguments) + "; do printf '%s\\n' \"$w\"; done"},
      {"PATH=/usr/bin:/bin"});
  std::string out;
  char buffer[4096];
  for (ssize_t n; (n = ::read(bash.out_fd, buffer, sizeof buffer)) > 0;) out.append(buffer, n);
  ::close(bash.out_fd);
  ::close(bash.err_fd);
  int status = 0;
  ::waitpid(bash.pid, &status, 0);
  EXPECT_EQ(status, 0) << arguments;
  return out;
}

TEST(CommandExpansionTest, SplitsLikeBash) {
  for (const char* arguments : {"456 high alice", "\"hello world\" 'x y' z", "a\"b c\"d",
                                "'a\\b' \"c\\d\" e\\ f", "\"say \\\"hi\\\"\" '$HOME' \"\\$x\""}) {
    std::string expected;
    for (const std::string& word : split_arguments(arguments)) expected += word + "\n";
    EXPECT_EQ(bash_words(arguments), expected) << arguments;
  }
}

TEST(CommandExpansionTest, FillsArgumentsAndPositions) {
  EXPECT_EQ(one_based("Review PR #$1 with priority $2 and assign to $3.", "456 high alice"),
            "Review PR #456 with priority high and assign to alice.");
  EXPECT_EQ(one_based("Fix issue $ARGUMENTS now", "  123 high-priority  "),
            "Fix issue 123 high-priority now");
  EXPECT_EQ(one_based("$1|$ARGUMENTS", "\"hello world\" x"), "hello world|\"hello world\" x");
  // Claude Code's zero-based $ARGUMENTS[N], whatever the short form counts from.
  EXPECT_EQ(one_based("$ARGUMENTS[0]/$ARGUMENTS[1]/$ARGUMENTS[7]", "a b"), "a/b/");
}

TEST(CommandExpansionTest, SkillsCountFromZero) {
  EXPECT_EQ(substitute_arguments("Migrate $0 from $1 to $2.", "SearchBar React Vue",
                                 Positions::kZeroBased),
            "Migrate SearchBar from React to Vue.");
  EXPECT_EQ(substitute_arguments("$9|$ARGUMENTS[1]", "a b", Positions::kZeroBased), "|b");
}

TEST(CommandExpansionTest, EdgeCasesOfPlaceholders) {
  // Missing words are empty; $10 is $1 then 0; $0 and other $words stay.
  EXPECT_EQ(one_based("[$1][$2][$9]", "only"), "[only][][]");
  EXPECT_EQ(one_based("$10", "x"), "x0");
  EXPECT_EQ(one_based("$0 $HOME $ $", "x"), "$0 $HOME $ $\n\nARGUMENTS: x");
  EXPECT_EQ(one_based("$ARGUMENTSX", "x"), "xX");
  EXPECT_EQ(one_based("$ARGUMENTS[", "x"), "x[");
  EXPECT_EQ(one_based("$ARGUMENTS[a]", "x"), "x[a]");
  // Arguments are not scanned again.
  EXPECT_EQ(one_based("$1 $2", "$2 done"), "$2 done");
}

TEST(CommandExpansionTest, ArgumentsAreNeverDropped) {
  EXPECT_EQ(one_based("Analyze this code.", "src/a.cpp fast"),
            "Analyze this code.\n\nARGUMENTS: src/a.cpp fast");
  EXPECT_EQ(one_based("", "x"), "ARGUMENTS: x");
  EXPECT_EQ(one_based("Analyze this code.", "  "), "Analyze this code.");
  // A body with placeholders uses them, even when some are left empty.
  EXPECT_EQ(one_based("Issue $1.", ""), "Issue .");
}

TEST(CommandExpansionTest, ExpandsArgumentsThenIncludes) {
  testing::TempDir dir;
  dir.write("src/a.cpp", "int a;\n");
  EXPECT_EQ(expand_command("Review @$1 carefully.", "src/a.cpp", dir.path()).text,
            "Review @src/a.cpp carefully.\n\n<file path=\"src/a.cpp\">\nint a;\n</file>");
}

TEST(CommandExpansionTest, ACommandUsingDollarZeroCountsFromZero) {
  testing::TempDir dir;
  EXPECT_EQ(expand_command("Fix #$1, priority $2.", "456 high", dir.path()).text,
            "Fix #456, priority high.");
  EXPECT_EQ(expand_command("Migrate $0 from $1.", "SearchBar React", dir.path()).text,
            "Migrate SearchBar from React.");
}

TEST(CommandExpansionTest, ASkillGetsItsArgumentsAndItsFolder) {
  const SkillDefinition skill{
      .name = "migrate",
      .instructions = "Migrate $0 to $1 with ${CLAUDE_SKILL_DIR}/steps.md ($ARGUMENTS).",
      .file = "/home/u/.claude/skills/migrate/SKILL.md"};
  EXPECT_EQ(expand_skill(skill, "Button Vue"),
            "Migrate Button to Vue with /home/u/.claude/skills/migrate/steps.md (Button Vue).");
  // No placeholder: the arguments are appended; no @path includes.
  const SkillDefinition plain{.name = "p", .instructions = "Read @notes.md first."};
  EXPECT_EQ(expand_skill(plain, "now"), "Read @notes.md first.\n\nARGUMENTS: now");
  EXPECT_EQ(expand_skill(plain, ""), "Read @notes.md first.");
}

TEST(PromptCommandsTest, FindsInlineCommandsAfterABlankOrAtTheStart) {
  const std::string text = "- Status: !`git status`\n!`git diff HEAD` and (!`ls -a`)";
  const std::vector<PromptCommand> commands = find_prompt_commands(text);
  ASSERT_EQ(commands.size(), 3U);
  EXPECT_EQ(commands[0].command, "git status");
  EXPECT_EQ(text.substr(commands[0].begin, commands[0].end - commands[0].begin), "!`git status`");
  EXPECT_EQ(commands[1].command, "git diff HEAD");
  EXPECT_EQ(commands[2].command, "ls -a");
  EXPECT_EQ(with_command_outputs(text, commands, {"clean", "", "a b"}),
            "- Status: clean\n and (a b)");
}

TEST(PromptCommandsTest, ProseAndCodeSpansAndExampleBlocksAreNotCommands) {
  EXPECT_TRUE(find_prompt_commands("Done!`x` and `!`y`` and !`` and !`open").empty());
  EXPECT_TRUE(find_prompt_commands("```\nValidate: !`echo $1 | grep x`\n```\n").empty());
}

TEST(PromptCommandsTest, AFencedBangBlockIsOneCommand) {
  const std::string text = "Setup:\n```!\n./setup.sh \"a b\"\necho done\n```\nThen go on.";
  const std::vector<PromptCommand> commands = find_prompt_commands(text);
  ASSERT_EQ(commands.size(), 1U);
  EXPECT_EQ(commands[0].command, "./setup.sh \"a b\"\necho done");
  EXPECT_EQ(with_command_outputs(text, commands, {"ok"}), "Setup:\nok\nThen go on.");
  EXPECT_TRUE(find_prompt_commands("```!\nnever closed\n").empty());
}

TEST(CommandExpansionTest, ArgumentsAreOneQuotedWordInACommandAndNeverMakeOne) {
  testing::TempDir dir;
  dir.write("notes.md", "!`rm -rf x`\n");
  const CommandPrompt prompt =
      expand_command("Show !`git show $1` and @notes.md", "\"HEAD;touch x\" it's", dir.path());
  ASSERT_EQ(prompt.commands.size(), 1U);
  EXPECT_EQ(prompt.commands[0].command, "git show 'HEAD;touch x'");
  EXPECT_EQ(with_command_outputs(prompt.text, prompt.commands, {"diff"}),
            "Show diff and @notes.md\n\n<file path=\"notes.md\">\n!`rm -rf x`\n</file>");
  EXPECT_EQ(expand_command("!`echo $ARGUMENTS`", "it's a test", dir.path()).commands[0].command,
            "echo 'it'\\''s a test'");
  // Arguments appended or filled into the text are text, whatever they hold.
  EXPECT_TRUE(expand_command("Summarise this.", "hello !`touch y`", dir.path()).commands.empty());
  EXPECT_TRUE(expand_command("Say $1.", "!`touch y`", dir.path()).commands.empty());
}

}  // namespace
}  // namespace nib::extensions
