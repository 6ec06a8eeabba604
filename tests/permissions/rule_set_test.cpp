// The rule set: loading from settings documents (and its errors), precedence, bash commands
// part by part, the built-in defaults.

#include "permissions/rule_set.hpp"

#include <gtest/gtest.h>

#include "permissions/rule_check.hpp"
#include "support/call_builders.hpp"

namespace nib::permissions {
namespace {

using nlohmann::json;

RuleSet load(std::vector<RuleSource> sources) {
  auto loaded = RuleSet::load(sources);
  EXPECT_TRUE(loaded.ok()) << loaded.error();
  return loaded.ok() ? std::move(loaded.value()) : RuleSet();
}

RuleSource source(std::string file, json permissions) {
  return {file, json{{"permissions", std::move(permissions)}}, "/project"};
}

CallFacts bash(std::string command, core::Confinement confinement = core::Confinement::kSandboxed) {
  return {"bash", testing::command_call(command, confinement), "/project", "/home/u"};
}

// A call of the tool `name` as that tool would report it: its "path" resolved from /project
// ("~" from /home/u), its URL's host.
CallFacts tool(std::string name, json arguments) {
  core::AccessKind kind = core::AccessKind::kChange;
  if (name == "read" || name == "grep" || name == "find" || name == "ls") {
    kind = core::AccessKind::kRead;
  } else if (name == "edit" || name == "write") {
    kind = core::AccessKind::kWrite;
  } else if (name.starts_with("mcp__")) {
    kind = core::AccessKind::kExternal;
  }
  core::CallAccess access = testing::kind_call(kind);
  if (arguments.contains("path")) {
    std::string path = arguments["path"];
    if (path.starts_with("~/")) path = "/home/u" + path.substr(1);
    access = testing::path_call(kind, "/project", path);
  }
  if (arguments.contains("url")) {
    std::string host = arguments["url"];
    host = host.substr(host.find("://") + 3);
    host = host.substr(0, host.find_first_of("/?"));
    for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    access = testing::fetch_call(arguments["url"], host);
  }
  return {std::move(name), std::move(access), "/project", "/home/u"};
}

Verdict verdict(const RuleSet& rules, const CallFacts& call) {
  return rules.decide(call).decision.verdict;
}

// Each rule knows the line it is written on, from the file's text: the first place after its
// list's key where it appears as JSON writes it.
TEST(RuleSet, RulesKnowTheirLines) {
  const std::string text =
      "{\n"
      "  \"model\": \"Bash(ls)\",\n"
      "  \"permissions\": {\n"
      "    \"deny\": [\"Bash(rm:*)\"],\n"
      "    \"allow\": [\n"
      "      \"Bash(ls)\",\n"
      "      \"Read(\\\"x\\\")\"\n"
      "    ]\n"
      "  }\n"
      "}\n";
  RuleSource written{"/p/s.json", json::parse(text), "/p", text};
  const RuleSet rules = load({written});
  ASSERT_GE(rules.rules().size(), 3u);
  EXPECT_EQ(rules.rules()[0].text, "Bash(ls)");
  EXPECT_EQ(rules.rules()[0].origin.line, 6u) << "not the model's line";
  EXPECT_EQ(rules.rules()[1].origin.line, 7u);
  EXPECT_EQ(rules.rules()[2].text, "Bash(rm:*)");
  EXPECT_EQ(rules.rules()[2].origin.line, 4u);
  EXPECT_EQ(rules.rules()[2].origin.describe(), "/p/s.json:4 permissions.deny[0]");
  EXPECT_EQ(load({source("/p/s.json", {{"allow", {"Bash(ls)"}}})}).rules()[0].origin.line, 0u)
      << "without the text";
}

TEST(RuleSet, BrokenRulesNameFileListIndexAndProblem) {
  const auto broken =
      RuleSet::load({source("/p/.nib/settings.json", {{"allow", {"Bash(ls)", "Bash(npm"}}})});
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error(),
            "/p/.nib/settings.json: permissions.allow[1]: \"Bash(npm\": the \"(\" is not closed");
  EXPECT_EQ(RuleSet::load({source("/f", {{"deny", "Bash"}})}).error(),
            "/f: permissions.deny: must be a list of rules (strings)");
  EXPECT_NE(RuleSet::load({source("/f", {{"ask", {3}}})})
                .error()
                .find("permissions.ask[0]: must be a string"),
            std::string::npos);
  EXPECT_EQ(RuleSet::load({{"/f", json{{"permissions", 1}}, "/"}}).error(),
            "/f: permissions: must be an object");
  EXPECT_TRUE(RuleSet::load({{"/f", json{{"model", "x"}}, "/"}}).ok()) << "no permissions: fine";
}

TEST(RuleSet, DenyComesBeforeAskBeforeAllowWhateverTheFile) {
  const RuleSet rules = load(
      {source("/user.json", {{"deny", {"Bash(git push:*)"}}}),
       source("/project.json", {{"allow", {"Bash(git:*)"}}, {"ask", {"Bash(git commit:*)"}}})});
  EXPECT_EQ(verdict(rules, bash("git status")), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, bash("git commit -m x")), Verdict::kAsk);
  const CallDecision push = rules.decide(bash("git push origin main"));
  EXPECT_EQ(push.decision.verdict, Verdict::kDeny);
  ASSERT_NE(push.decision.rule, nullptr);
  EXPECT_EQ(push.decision.rule->text, "Bash(git push:*)");
  EXPECT_EQ(push.decision.rule->origin.file, "/user.json");
  EXPECT_EQ(push.decision.rule->origin.index, 0u);
  EXPECT_EQ(verdict(rules, bash("npm test")), Verdict::kNone);
}

TEST(RuleSet, EveryPartOfACommandMustBeAllowed) {
  const RuleSet rules = load({source(
      "/s.json", {{"allow", {"Bash(npm test:*)", "Bash(git log:*)"}}, {"deny", {"Bash(rm:*)"}}})});
  EXPECT_EQ(verdict(rules, bash("npm test && git log -3 | cat")), Verdict::kNone)
      << "cat is not allowed";
  EXPECT_EQ(verdict(rules, bash("npm test && git log -3")), Verdict::kAllow);
  const CallDecision mixed = rules.decide(bash("npm test; sudo rm -rf build"));
  EXPECT_EQ(mixed.decision.verdict, Verdict::kDeny);
  ASSERT_EQ(mixed.parts.size(), 2u);
  EXPECT_EQ(mixed.parts[0].verdict, Verdict::kAllow);
  EXPECT_EQ(mixed.parts[1].verdict, Verdict::kDeny);
  EXPECT_EQ(verdict(rules, bash("echo $(rm -rf x)")), Verdict::kDeny) << "inside a substitution";
  EXPECT_EQ(verdict(rules, bash("bash -c 'npm test && rm x'")), Verdict::kDeny);
  EXPECT_EQ(verdict(rules, bash("$CMD -rf x")), Verdict::kAsk) << "might be rm";
  EXPECT_EQ(verdict(rules, bash("eval 'npm test'")), Verdict::kAsk) << "not understood: asks";
  EXPECT_EQ(verdict(rules, bash("npm test 'unclosed")), Verdict::kAsk);
}

TEST(RuleSet, APrivilegedCommandNeedsARuleNamingTheWrapper) {
  const RuleSet rules =
      load({source("/s.json", {{"allow", {"Bash(apt list:*)", "Bash(sudo apt update)"}}})});
  EXPECT_EQ(verdict(rules, bash("apt list --installed")), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, bash("sudo apt list --installed")), Verdict::kNone);
  EXPECT_EQ(verdict(rules, bash("sudo apt update")), Verdict::kAllow);
}

TEST(RuleSet, NotUnderstoodStillDeniesForABareBashDeny) {
  const RuleSet rules = load({source("/s.json", {{"deny", {"Bash"}}})});
  EXPECT_EQ(verdict(rules, bash("eval x")), Verdict::kDeny);
  const CallDecision unknown = RuleSet().decide(bash("eval x"));
  EXPECT_EQ(unknown.decision.verdict, Verdict::kNone)
      << "no rule about commands could hide in it: the mode decides (auto runs it sandboxed)";
  EXPECT_NE(unknown.decision.reason.find("eval"), std::string::npos);
  const RuleSet asking = load({source("/s.json", {{"ask", {"Bash(git push:*)"}}})});
  EXPECT_EQ(verdict(asking, bash("eval x")), Verdict::kAsk) << "it might be git push";
  const RuleSet allowing = load({source("/s.json", {{"allow", {"Bash(eval:*)"}}})});
  EXPECT_EQ(verdict(allowing, bash("eval x")), Verdict::kNone) << "an allow rule cannot vouch";
}

TEST(RuleSet, FileToolsAndTheirPaths) {
  const RuleSet rules = load({source(
      "/s.json", {{"allow", {"Edit(src/**)", "Read", "mcp__gh__*", "WebFetch(domain:docs.rs)"}},
                  {"deny", {"Read(./secrets/**)", "Edit(//etc/**)"}}})});
  EXPECT_EQ(verdict(rules, tool("edit", {{"path", "src/a.c"}})), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, tool("write", {{"path", "/project/src/b.c"}})), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, tool("write", {{"path", "lib/b.c"}})), Verdict::kNone);
  EXPECT_EQ(verdict(rules, tool("edit", {{"path", "src/../../etc/x"}})), Verdict::kDeny)
      << "paths are normalised before matching";
  EXPECT_EQ(verdict(rules, tool("read", {{"path", "secrets/key"}})), Verdict::kDeny);
  EXPECT_EQ(verdict(rules, tool("grep", {{"pattern", "x"}, {"path", "secrets"}})), Verdict::kDeny);
  EXPECT_EQ(verdict(rules, tool("read", {{"path", "README.md"}})), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, tool("mcp__gh__create_issue", json::object())), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, tool("web_fetch", {{"url", "https://Docs.RS/x?y"}})), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, tool("web_fetch", {{"url", "https://docs.rs.evil.com/"}})),
            Verdict::kNone);
}

TEST(RuleSet, DefaultsAskForSecretsUnlessYouAllowThem) {
  const RuleSet defaults;
  EXPECT_EQ(verdict(defaults, tool("read", {{"path", "~/.ssh/id_rsa"}})), Verdict::kAsk);
  EXPECT_EQ(verdict(defaults, tool("read", {{"path", "/home/u/.aws/credentials"}})), Verdict::kAsk);
  EXPECT_EQ(verdict(defaults, tool("ls", {{"path", "/home/u/.gnupg"}})), Verdict::kAsk);
  EXPECT_EQ(verdict(defaults, tool("read", {{"path", "deep/dir/.env.local"}})), Verdict::kAsk);
  EXPECT_EQ(verdict(defaults, tool("read", {{"path", "src/main.c"}})), Verdict::kNone);
  EXPECT_EQ(verdict(defaults, bash("cat ~/.ssh/id_rsa")), Verdict::kAsk);
  EXPECT_EQ(verdict(defaults, bash("cat .env")), Verdict::kAsk);
  const RuleSet mine =
      load({source("/s.json", {{"allow", {"Read(~/.ssh/config)", "Bash(cat:*)"}}})});
  EXPECT_EQ(verdict(mine, tool("read", {{"path", "~/.ssh/config"}})), Verdict::kAllow);
  EXPECT_EQ(verdict(mine, bash("cat ~/.ssh/config")), Verdict::kAllow);
  EXPECT_EQ(verdict(mine, bash("cat ~/.ssh/id_rsa")), Verdict::kAllow)
      << "your allow rule for cat wins over the defaults";
}

TEST(RuleSet, CommandsNamingDeniedPathsAsk) {
  const RuleSet rules = load({source("/s.json", {{"allow", {"Bash(cat:*)", "Bash(echo:*)"}},
                                                 {"deny", {"Read(./secrets/**)", "Edit(//etc/**)"}},
                                                 {"ask", {"Edit(./.git/**)"}}})});
  EXPECT_EQ(verdict(rules, bash("cat secrets/key")), Verdict::kAsk);
  EXPECT_EQ(verdict(rules, bash("echo x > /etc/passwd")), Verdict::kDeny);
  EXPECT_EQ(verdict(rules, bash("echo x >> .git/config")), Verdict::kAsk);
  EXPECT_EQ(verdict(rules, bash("echo x > out.txt")), Verdict::kAllow);
}

// A deny rule about a program holds however the program is reached: by its path, behind a
// variable that changes what runs, or through a shell fed its script on stdin.
TEST(RuleSet, ADenyRuleCannotBeWalkedAroundBySpellingTheCommandAnotherWay) {
  const RuleSet rules = load({source("/s.json", {{"deny", {"Bash(rm:*)"}}})});
  for (const char* command : {"/bin/rm f", "/usr/bin/rm -rf x", "PATH=/usr/bin rm f",
                              "env PATH=/usr/bin rm f", "sudo /bin/rm f"}) {
    EXPECT_EQ(verdict(rules, bash(command)), Verdict::kDeny) << command;
  }
  for (const char* command :
       {"LD_PRELOAD=./x.so ls", "PATH=/tmp/evil:$PATH; ls", "export PATH=/tmp/evil; ls",
        "BASH_ENV=./x ls", "sh -s < script", "bash < script", "echo 'rm f' | sh", "cat x | bash -",
        "sh <<EOF\nrm f\nEOF", "bash <<< 'rm f'", "zsh -c 'rm f'"}) {
    EXPECT_EQ(verdict(rules, bash(command)), Verdict::kAsk) << command;
  }
  EXPECT_EQ(verdict(rules, bash("ls -la")), Verdict::kNone);
  EXPECT_EQ(verdict(rules, bash("bash script.sh")), Verdict::kNone) << "a script file is a program";
  const RuleSet allowing = load({source("/s.json", {{"allow", {"Bash(ls:*)"}}})});
  EXPECT_EQ(verdict(allowing, bash("/tmp/ls")), Verdict::kNone)
      << "an allow rule does not vouch for another program of the same name";
  EXPECT_EQ(verdict(allowing, bash("LD_PRELOAD=./x.so ls")), Verdict::kNone);
  EXPECT_EQ(verdict(RuleSet(), bash("LD_PRELOAD=./x.so ls")), Verdict::kNone)
      << "with no rule about commands to hide, the mode decides (the sandbox holds)";
}

// The defaults ask before a command that plainly reads a secret place, however the path is
// written; the sandbox, which hides those places, is the boundary.
TEST(RuleSet, CommandsReadingSecretsAskHoweverThePathIsWritten) {
  const RuleSet defaults;
  for (const char* command :
       {"cat $HOME/.ssh/id_rsa", "cat ${HOME}/.ssh/id_rsa", "cat < ~/.ssh/id_rsa",
        "cat ~//.ssh/id_rsa", "cat ~/.ss*/id_rsa", "cat ~/.ssh/*", "grep -r key ~",
        "tar czf /tmp/x.tgz ~/", "cat /home/u/.aws/credentials", "cp -r /home/u x", "cat .e*",
        "base64 --input=/home/u/.netrc", "cat ~/.ssh/{id_rsa,config}"}) {
    EXPECT_EQ(verdict(defaults, bash(command)), Verdict::kAsk) << command;
  }
  for (const char* command : {"ls ~", "cat ~/*.txt", "find ~ -name notes.md", "cat src/main.c",
                              "cd ~ && ls", "echo $HOME"}) {
    EXPECT_EQ(verdict(defaults, bash(command)), Verdict::kNone) << command;
  }
}

// Rules that say how far a command may leave the sandbox: a plain rule covers it confined only;
// "network:" also with the host's network; "unsandboxed:" also outside.
TEST(RuleSet, LeavingTheSandboxTakesARuleThatSaysSo) {
  using core::Confinement;
  const RuleSet rules = load({source(
      "/s.json", {{"allow", {"Bash(npm:*)", "Bash(network:curl:*)", "Bash(unsandboxed:docker:*)"}},
                  {"deny", {"Bash(network:scp:*)"}}})});
  EXPECT_EQ(verdict(rules, bash("npm test")), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, bash("npm install", Confinement::kSandboxedNetwork)), Verdict::kNone);
  EXPECT_EQ(verdict(rules, bash("npm install", Confinement::kUnconfinedAsked)), Verdict::kNone);
  EXPECT_EQ(verdict(rules, bash("curl x", Confinement::kSandboxedNetwork)), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, bash("curl x", Confinement::kUnconfinedAsked)), Verdict::kNone);
  EXPECT_EQ(verdict(rules, bash("curl x")), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, bash("docker ps", Confinement::kUnconfinedExcluded)), Verdict::kAllow);
  EXPECT_EQ(verdict(rules, bash("docker ps", Confinement::kUnconfinedUnavailable)),
            Verdict::kAllow);
  EXPECT_EQ(verdict(rules, bash("scp a b")), Verdict::kNone) << "confined, no deny applies";
  EXPECT_EQ(verdict(rules, bash("scp a b", Confinement::kSandboxedNetwork)), Verdict::kDeny);
  EXPECT_EQ(verdict(rules, bash("scp a b", Confinement::kUnconfinedAsked)), Verdict::kDeny);
  EXPECT_EQ(verdict(rules, bash("npm test", Confinement::kUnconfinedByUser)), Verdict::kAllow)
      << "the user switched the sandbox off: nothing leaves it";
  EXPECT_FALSE(RuleSet::load({source("/s.json", {{"allow", {"Bash(network:)"}}})}).ok());
}

TEST(RuleCheck, NeverMatchingShadowedAndRedundantRules) {
  const RuleSet rules = load({source("/s.json", {{"allow",
                                                  {"Bash(git log:*)", "Serach", "Task(worker)",
                                                   "Bash(npm:*)", "Bash(npm test)", "Read"}},
                                                 {"deny", {"Bash(git:*)"}}})});
  const auto problems = check_rules(rules, {{"bash", core::AccessKind::kExecute},
                                            {"read", core::AccessKind::kRead},
                                            {"grep", core::AccessKind::kRead},
                                            {"edit", core::AccessKind::kWrite},
                                            {"write", core::AccessKind::kWrite},
                                            {"task", core::AccessKind::kDelegate}});
  std::vector<std::string> found;
  for (const RuleProblem& problem : problems)
    found.push_back(problem.rule->text + ": " + problem.problem);
  ASSERT_EQ(found.size(), 4u) << ::testing::PrintToString(found);
  EXPECT_NE(found[0].find("Bash(git log:*): shadowed: Bash(git:*)"), std::string::npos) << found[0];
  EXPECT_NE(found[1].find("Serach: never matches"), std::string::npos) << found[1];
  EXPECT_NE(found[2].find("Task(worker): never matches"), std::string::npos) << found[2];
  EXPECT_NE(found[3].find("Bash(npm test): redundant: Bash(npm:*)"), std::string::npos) << found[3];
}

}  // namespace
}  // namespace nib::permissions
