// Rule syntax and matching tables: Claude Code's forms, nib's and Claude's tool names, path
// anchors, and the opaque parts of commands.

#include "permissions/rule.hpp"

#include <gtest/gtest.h>

#include "permissions/pattern_match.hpp"
#include "permissions/shell_split.hpp"

namespace nib::permissions {
namespace {

Rule rule(std::string_view text, const std::filesystem::path& project = "/project") {
  auto parsed =
      parse_rule(text, RuleOrigin{"/project/.nib/settings.json", RuleList::kAllow, 0}, project);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.error();
  return parsed.ok() ? parsed.value() : Rule{};
}

// Whether the Bash rule certainly matches the (single) simple command `line`.
bool matches(std::string_view rule_text, std::string_view line, bool possibly = false) {
  const ShellSplit split = split_command(line);
  EXPECT_TRUE(split.understood && split.commands.size() == 1) << line;
  if (split.commands.size() != 1) return false;
  const SimpleCommand& command = split.commands[0];
  return rule_matches_command(rule(rule_text), command.text(), command.text_opaque(), possibly);
}

TEST(Rule, CommandForms) {
  struct Case {
    const char* rule;
    const char* command;
    bool match;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"Bash(npm test:*)", "npm test", true},
           {"Bash(npm test:*)", "npm test --watch", true},
           {"Bash(npm test:*)", "npm tests", false},
           {"Bash(npm test:*)", "npm  'test'  -x", true},
           {"Bash(npm test:*)", "CI=1 timeout 60 npm test", true},
           {"Bash(git log *)", "git log -5", true},
           {"Bash(git log *)", "git log", true},
           {"Bash(git log *)", "git logs", false},
           {"Bash(git * main)", "git merge main", true},
           {"Bash(git * main)", "git merge dev", false},
           {"Bash(ls*)", "lsof", true},
           {"Bash(ls *)", "lsof", false},
           {"Bash(ls)", "ls", true},
           {"Bash(ls)", "ls -la", false},
           {"Bash", "rm -rf /", true},
           {"Bash(*)", "anything at all", true},
           {"bash(make:*)", "make -j4", true},
           {"Bash(rm build)", "rm $DIR", false},
           {"Bash(rm:*)", "rm $DIR", true},
           {"Bash(echo *.c)", "echo *.c", true},
           {"Bash(echo a.c)", "echo *.c", false},
       }) {
    EXPECT_EQ(matches(c.rule, c.command), c.match) << c.rule << " vs " << c.command;
  }
}

TEST(Rule, OpaquePartsMayPossiblyMatchAnything) {
  EXPECT_FALSE(matches("Bash(rm -rf /)", "rm -rf $DIR"));
  EXPECT_TRUE(matches("Bash(rm -rf /)", "rm -rf $DIR", true));
  EXPECT_TRUE(matches("Bash(git push:*)", "$GIT push", true));
  EXPECT_FALSE(matches("Bash(git push:*)", "ls $X", true));
  EXPECT_TRUE(command_pattern_matches("a*", "a", {}, false));
  EXPECT_TRUE(command_pattern_matches("a\\*", "a*", {}, false)) << "an escaped star is a star";
  EXPECT_FALSE(command_pattern_matches("a\\*", "ab", {}, false));
}

TEST(Rule, BrokenRulesSayWhy) {
  for (const auto& [text, problem] : std::initializer_list<std::pair<const char*, const char*>>{
           {"Bash(npm", "not closed"},
           {"Bash(npm) x", "after the closing"},
           {"Bash()", "alone"},
           {"(ls)", "tool name is missing"},
           {"Ba sh", "not a tool name"},
           {"Bash(npm:* test)", ":*"},
           {"WebFetch(docs.rs)", "domain:"},
           {"Read(~bob/x)", "~user"},
           {"Re*d", "MCP"},
           {"mcp__x__y(z)", "MCP rules take no"},
       }) {
    const auto parsed = parse_rule(text, {}, "/p");
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.error().find(problem), std::string::npos) << text << ": " << parsed.error();
  }
}

// The four families name calls by what they do; any other name names the tool so called.
TEST(Rule, RulesNameCallsByWhatTheyDoOrByTheToolsName) {
  using core::AccessKind;
  EXPECT_TRUE(rule_names_call(rule("Read"), "read", AccessKind::kRead));
  EXPECT_TRUE(rule_names_call(rule("read"), "read", AccessKind::kRead));
  EXPECT_TRUE(rule_names_call(rule("Read"), "grep", AccessKind::kRead))
      << "Read rules apply to the searches";
  EXPECT_TRUE(rule_names_call(rule("Read"), "any_reader", AccessKind::kRead))
      << "and to any tool whose calls read files";
  EXPECT_FALSE(rule_names_call(rule("Read"), "read", AccessKind::kWrite));
  EXPECT_FALSE(rule_names_call(rule("Grep"), "read", AccessKind::kRead));
  EXPECT_TRUE(rule_names_call(rule("Glob"), "find", AccessKind::kRead));
  EXPECT_TRUE(rule_names_call(rule("Edit"), "write", AccessKind::kWrite));
  EXPECT_TRUE(rule_names_call(rule("Write"), "edit", AccessKind::kWrite));
  EXPECT_TRUE(rule_names_call(rule("WebFetch"), "web_fetch", AccessKind::kNetwork));
  EXPECT_TRUE(rule_names_call(rule("TodoWrite"), "todo_write", AccessKind::kNone));
  EXPECT_FALSE(rule_names_call(rule("Bash"), "read", AccessKind::kRead));
  EXPECT_TRUE(rule_names_call(rule("Bash"), "shell", AccessKind::kExecute));
  EXPECT_TRUE(rule_names_call(rule("mcp__github__create_issue"), "mcp__github__create_issue",
                              AccessKind::kExternal));
  EXPECT_FALSE(rule_names_call(rule("mcp__github__create_issue"), "mcp__github__close_issue",
                               AccessKind::kExternal));
  EXPECT_TRUE(
      rule_names_call(rule("mcp__github__*"), "mcp__github__close_issue", AccessKind::kExternal));
  EXPECT_TRUE(
      rule_names_call(rule("mcp__github"), "mcp__github__close_issue", AccessKind::kExternal));
  EXPECT_FALSE(rule_names_call(rule("mcp__github"), "mcp__githubx__a", AccessKind::kExternal));
  EXPECT_EQ(rule("Task(worker)").form, Rule::Form::kUnmatchable);
  EXPECT_EQ(rule("Bash(network:npm install:*)").reach, Reach::kNetwork);
  EXPECT_EQ(rule("Bash(network:npm install:*)").pattern, "npm install");
  EXPECT_EQ(rule("Bash(unsandboxed:*)").reach, Reach::kOutside);
  EXPECT_EQ(rule("Bash(unsandboxed:*)").form, Rule::Form::kAnyUse);
}

TEST(Rule, PathAnchorsFollowClaudeCode) {
  const std::filesystem::path cwd = "/project/sub", home = "/home/u";
  struct Case {
    const char* rule;
    const char* path;
    bool match;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"Read(//etc/passwd)", "/etc/passwd", true},
           {"Read(//etc/**)", "/etc/ssl/certs/x.pem", true},
           {"Read(~/.ssh/**)", "/home/u/.ssh/id_rsa", true},
           {"Read(~/.ssh/**)", "/home/u/.ssh", true},
           {"Read(~/.ssh/**)", "/home/u/.sshx/a", false},
           {"Read(~/Documents/*.pdf)", "/home/u/Documents/a.pdf", true},
           {"Read(~/Documents/*.pdf)", "/home/u/Documents/x/a.pdf", false},
           {"Edit(/src/**/*.ts)", "/project/src/a/b/c.ts", true},
           {"Edit(/src/**/*.ts)", "/project/src/c.ts", true},
           {"Edit(/src/**/*.ts)", "/project/sub/src/c.ts", false},
           {"Read(./.env)", "/project/sub/.env", true},
           {"Read(./.env)", "/project/sub/a/.env", false},
           {"Read(.env)", "/project/sub/a/b/.env", true},
           {"Read(.env)", "/project/.env", false},
           {"Read(*.env)", "/project/sub/x/prod.env", true},
           {"Edit(src/**)", "/project/sub/src/a/b.c", true},
           {"Edit(src/**)", "/project/sub/lib/src/b.c", false},
           {"Edit(src)", "/project/sub/src/a/b.c", true},
           {"Read(//**/.env*)", "/anywhere/deep/.env.local", true},
           {"Edit(src/?.c)", "/project/sub/src/a.c", true},
           {"Edit(src/?.c)", "/project/sub/src/ab.c", false},
       }) {
    EXPECT_EQ(rule_matches_path(rule(c.rule), c.path, cwd, home), c.match)
        << c.rule << " vs " << c.path;
  }
}

TEST(Rule, SubjectsOfOtherTools) {
  CallSubject fetch{"web_fetch", core::AccessKind::kNetwork, {}, "docs.rs", "/p", "/h"};
  EXPECT_TRUE(rule_matches_subject(rule("WebFetch(domain:docs.rs)"), fetch, true));
  EXPECT_FALSE(rule_matches_subject(rule("WebFetch(domain:rs)"), fetch, true));
  EXPECT_TRUE(rule_matches_subject(rule("WebFetch(domain:*.rs)"), fetch, true));
  EXPECT_FALSE(rule_matches_subject(rule("WebFetch(domain:*.docs.rs)"), fetch, true));
  CallSubject read{
      "read", core::AccessKind::kRead, {"/p/a.txt", "/elsewhere/a.txt"}, std::nullopt, "/p", "/h"};
  EXPECT_TRUE(rule_matches_subject(rule("Read(a.txt)"), read, false)) << "any path, for deny";
  EXPECT_FALSE(rule_matches_subject(rule("Read(a.txt)"), read, true)) << "every path, for allow";
  EXPECT_TRUE(rule_matches_subject(rule("Read"), read, true));
}

TEST(Rule, OriginsDescribeTheirPlace) {
  EXPECT_EQ((RuleOrigin{"/p/.nib/settings.json", RuleList::kDeny, 2}.describe()),
            "/p/.nib/settings.json permissions.deny[2]");
  EXPECT_EQ((RuleOrigin{"/p/.nib/settings.json", RuleList::kDeny, 2, 7}.describe()),
            "/p/.nib/settings.json:7 permissions.deny[2]");
  EXPECT_EQ(RuleOrigin{}.describe(), "built-in default");
}

}  // namespace
}  // namespace nib::permissions
