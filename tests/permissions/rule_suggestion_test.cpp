// The approval prompt's "always": one generalised rule per simple command, and the settings
// document the rules are added to.

#include "permissions/rule_suggestion.hpp"

#include <gtest/gtest.h>

#include "permissions/rule_set.hpp"
#include "support/call_builders.hpp"

namespace nib::permissions {
namespace {

std::vector<std::string> suggestions(std::string_view line) {
  const ShellSplit split = split_command(line);
  EXPECT_TRUE(split.understood) << line;
  std::vector<std::string> rules;
  for (const SimpleCommand& command : split.commands) {
    rules.push_back(generalise(command).value_or("(none)"));
  }
  return rules;
}

using Texts = std::vector<std::string>;

TEST(Generalise, OneRulePerSimpleCommand) {
  EXPECT_EQ(suggestions("npm test --watch"), Texts{"Bash(npm test:*)"});
  EXPECT_EQ(suggestions("git log -5"), Texts{"Bash(git log:*)"});
  EXPECT_EQ(suggestions("./build.sh --fast"), Texts{"Bash(./build.sh:*)"});
  EXPECT_EQ(suggestions("npm run build -- --prod"), Texts{"Bash(npm run build:*)"});
  EXPECT_EQ(suggestions("git -C x status"), Texts{"Bash(git:*)"}) << "an option, not a subcommand";
  EXPECT_EQ(suggestions("CI=1 timeout 5 pytest -x tests/"), Texts{"Bash(pytest:*)"});
  EXPECT_EQ(suggestions("make && ls -la | wc -l"),
            (Texts{"Bash(make:*)", "Bash(ls:*)", "Bash(wc:*)"}));
  EXPECT_EQ(suggestions("sudo apt install jq"), Texts{"Bash(sudo apt install:*)"});
  EXPECT_EQ(suggestions("$TOOL x"), Texts{"(none)"});
  EXPECT_EQ(suggestions("X=1"), Texts{"(none)"});
}

TEST(Generalise, TheSuggestedRuleAllowsTheCommand) {
  for (const char* line : {"npm test --watch", "git log -5 --oneline", "./build.sh",
                           "sudo apt install jq", "cargo build --release", "npm run lint"}) {
    const ShellSplit split = split_command(line);
    const std::string rule = *generalise(split.commands.at(0));
    auto rules = RuleSet::load({{"/s.json", {{"permissions", {{"allow", {rule}}}}}, "/"}});
    ASSERT_TRUE(rules.ok()) << rules.error();
    const CallDecision decided =
        rules.value().decide({"bash", testing::command_call(line), "/tmp", "/home/u"});
    EXPECT_EQ(decided.decision.verdict, Verdict::kAllow) << line << " with " << rule;
  }
}

TEST(WithRulesAdded, MergesAndKeepsTheRest) {
  nlohmann::json document = {{"model", "m"},
                             {"permissions", {{"allow", {"Bash(ls)"}}, {"defaultMode", "ask"}}}};
  document = with_rules_added(document, RuleList::kAllow, {"Bash(ls)", "Bash(npm test:*)"});
  EXPECT_EQ(document["model"], "m");
  EXPECT_EQ(document["permissions"]["defaultMode"], "ask");
  EXPECT_EQ(document["permissions"]["allow"], (nlohmann::json{"Bash(ls)", "Bash(npm test:*)"}));
  EXPECT_EQ(with_rules_added(nullptr, RuleList::kDeny, {"Read(.env)"}),
            (nlohmann::json{{"permissions", {{"deny", {"Read(.env)"}}}}}));
}

}  // namespace
}  // namespace nib::permissions
