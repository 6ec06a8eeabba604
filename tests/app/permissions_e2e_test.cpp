// End-to-end: `nib permissions explain` and `nib permissions check` with the real binary and
// settings files (nib's and Claude Code's); and the saving of "always" rules.

#include <gtest/gtest.h>

#include "app/permission_rules.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

class PermissionsCommandTest : public ::testing::Test {
 protected:
  NibResult run(std::vector<std::string> args) {
    args.insert(args.begin(), "permissions");
    return run_nib(args, dir_.path(), {{"XDG_CONFIG_HOME", (dir_.path() / "config").string()}});
  }
  TempDir dir_;
};

TEST_F(PermissionsCommandTest, ExplainShowsEachPartItsRuleAndTheDecision) {
  dir_.write(".nib/settings.json",
             R"json({"permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Bash(rm:*)"]}})json");
  dir_.write(".claude/settings.json", R"json({"permissions": {"allow": ["Bash(git log:*)"]}})json");
  const NibResult result = run({"explain", "npm test --watch && git log -3 | sudo rm -rf build"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::string nib_file = (dir_.path() / ".nib/settings.json").string();
  const std::string claude_file = (dir_.path() / ".claude/settings.json").string();
  EXPECT_NE(result.out.find("  1. npm test --watch\n     allow: allowed by Bash(npm test:*) (" +
                            nib_file + ":1 permissions.allow[0])"),
            std::string::npos)
      << result.out;
  EXPECT_NE(
      result.out.find("  2. git log -3  (read-only)\n     allow: allowed by Bash(git log:*) (" +
                      claude_file + ":1 permissions.allow[0])"),
      std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("  3. sudo rm -rf build\n     runs: rm -rf build\n     deny: denied by "
                            "Bash(rm:*) (" +
                            nib_file + ":1 permissions.deny[0])"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("decision: deny"), std::string::npos) << result.out;
}

TEST_F(PermissionsCommandTest, ExplainSaysWhatItCannotSplitAndOtherTools) {
  const NibResult unknown = run({"explain", "eval \"$X\""});
  EXPECT_EQ(unknown.exit_code, 0);
  EXPECT_NE(unknown.out.find("not split: eval runs text as a command"), std::string::npos)
      << unknown.out;
  // No rule about commands could hide in it: the mode decides (auto runs it in the sandbox).
  EXPECT_NE(unknown.out.find("decision: none (nib cannot split this command"), std::string::npos)
      << unknown.out;
  const NibResult read = run({"explain", "read", R"json({"path": "app/.env"})json"});
  EXPECT_EQ(read.exit_code, 0) << read.err;
  EXPECT_NE(read.out.find("decision: ask (asks: Read(//**/.env*) (built-in default))"),
            std::string::npos)
      << read.out;
  EXPECT_EQ(run({"explain", "read", "not json"}).exit_code, 2);
  EXPECT_EQ(run({"frobnicate"}).exit_code, 2);
}

TEST_F(PermissionsCommandTest, ABrokenRuleStopsWithItsFileIndexAndProblem) {
  dir_.write(".nib/settings.local.json",
             R"json({"permissions": {"ask": ["Bash(ls)", "Bash(npm"]}})json");
  const NibResult result = run({"check"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "nib: " + (dir_.path() / ".nib/settings.local.json").string() +
                            ": permissions.ask[1]: \"Bash(npm\": the \"(\" is not closed\n");
}

TEST_F(PermissionsCommandTest, CheckReportsRulesThatDoNothing) {
  dir_.write(
      ".nib/settings.json",
      R"json({"permissions": {"allow": ["Bash(git push:*)", "Serach", "Read"], "deny": ["Bash(git:*)"]}})json");
  const NibResult result = run({"check"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.out.find("permissions.allow[0]: Bash(git push:*): shadowed: Bash(git:*)"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("permissions.allow[1]: Serach: never matches: no tool is named Serach"),
            std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find("Read"), std::string::npos) << result.out;
  dir_.write(".nib/settings.json",
             R"json({"permissions": {"allow": ["Read", "Bash(make:*)"]  }  })json");
  const NibResult clean = run({"check"});
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_EQ(clean.out, "no problems in 2 rules\n");
}

TEST(SaveLocalRules, CreatesOrMergesKeepingTheRest) {
  TempDir dir;
  ASSERT_TRUE(
      app::save_local_rules(dir.path(), permissions::RuleList::kAllow, {"Bash(npm test:*)"}).ok());
  EXPECT_EQ(nlohmann::json::parse(file_contents(dir.path() / ".nib/settings.local.json")),
            (nlohmann::json{{"permissions", {{"allow", {"Bash(npm test:*)"}}}}}));
  dir.write(".nib/settings.local.json",
            R"json({"model": "m", "permissions": {"allow": ["Bash(ls)"]  }  })json");
  ASSERT_TRUE(
      app::save_local_rules(dir.path(), permissions::RuleList::kAllow, {"Bash(ls)", "Bash(make:*)"})
          .ok());
  EXPECT_EQ(
      nlohmann::json::parse(file_contents(dir.path() / ".nib/settings.local.json")),
      (nlohmann::json{{"model", "m"}, {"permissions", {{"allow", {"Bash(ls)", "Bash(make:*)"}}}}}));
  dir.write(".nib/settings.local.json", "{broken");
  const util::Status refused =
      app::save_local_rules(dir.path(), permissions::RuleList::kAllow, {"Bash(ls)"});
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("not valid JSON"), std::string::npos);
  EXPECT_EQ(file_contents(dir.path() / ".nib/settings.local.json"), "{broken") << "left alone";
}

}  // namespace
}  // namespace nib::testing
