// Claude Code's answers about a project's .mcp.json servers: read from each place it records
// them, a refusal counting anywhere, an approval only where the user wrote it.

#include "mcp/claude_answers.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace nib::mcp {
namespace {

using nlohmann::json;

TEST(ClaudeAnswers, ReadsTheThreeKeysAndPassesOverValuesOfAnotherType) {
  const ClaudeAnswers read =
      read_claude_answers(".claude/settings.local.json",
                          json{{"enabledMcpjsonServers", {"github", 7, "sentry"}},
                               {"disabledMcpjsonServers", {"scratch"}},
                               {"enableAllProjectMcpServers", true},
                               {"permissions", {{"allow", {"Bash(ls)"}}}}},
                          true);
  EXPECT_EQ(read.place, ".claude/settings.local.json");
  EXPECT_TRUE(read.written_by_user);
  EXPECT_EQ(read.enabled, (std::vector<std::string>{"github", "sentry"}));
  EXPECT_EQ(read.disabled, (std::vector<std::string>{"scratch"}));
  EXPECT_TRUE(read.enable_all);

  const ClaudeAnswers odd = read_claude_answers(
      "~/.claude.json",
      json{{"enabledMcpjsonServers", "github"}, {"enableAllProjectMcpServers", "yes"}}, true);
  EXPECT_TRUE(odd.enabled.empty());
  EXPECT_FALSE(odd.enable_all);
  EXPECT_TRUE(read_claude_answers("x", json::array(), true).enabled.empty());
}

TEST(ClaudeAnswers, EachPlaceTheUserWritesApprovesByNameOrAll) {
  for (const char* place :
       {"~/.claude/settings.json", "~/.claude.json", ".claude/settings.local.json"}) {
    const std::vector<ClaudeAnswers> by_name = {
        read_claude_answers(place, json{{"enabledMcpjsonServers", {"github"}}}, true)};
    const ClaudeAnswer approved = claude_answer(by_name, "github");
    EXPECT_EQ(approved.answer, ApprovalStore::Answer::kApproved) << place;
    EXPECT_EQ(approved.place, place);
    EXPECT_EQ(claude_answer(by_name, "other").answer, ApprovalStore::Answer::kNone) << place;
    const std::vector<ClaudeAnswers> all = {
        read_claude_answers(place, json{{"enableAllProjectMcpServers", true}}, true)};
    EXPECT_EQ(claude_answer(all, "other").answer, ApprovalStore::Answer::kApproved) << place;
  }
}

// A cloned repository must not start a program by itself: its committed settings approve
// nothing, but what they decline stays declined (declining starts nothing).
TEST(ClaudeAnswers, TheProjectsCommittedSettingsApproveNothingButMayDecline) {
  const std::vector<ClaudeAnswers> committed = {
      read_claude_answers(".claude/settings.json",
                          json{{"enableAllProjectMcpServers", true},
                               {"enabledMcpjsonServers", {"github"}},
                               {"disabledMcpjsonServers", {"scratch"}}},
                          false)};
  EXPECT_EQ(claude_answer(committed, "github").answer, ApprovalStore::Answer::kNone);
  EXPECT_EQ(claude_answer(committed, "other").answer, ApprovalStore::Answer::kNone);
  const ClaudeAnswer declined = claude_answer(committed, "scratch");
  EXPECT_EQ(declined.answer, ApprovalStore::Answer::kDeclined);
  EXPECT_EQ(declined.place, ".claude/settings.json");
}

TEST(ClaudeAnswers, ARefusalAnywhereWinsOverAnApproval) {
  const std::vector<ClaudeAnswers> places = {
      read_claude_answers("~/.claude/settings.json", json{{"enableAllProjectMcpServers", true}},
                          true),
      read_claude_answers(".claude/settings.local.json",
                          json{{"disabledMcpjsonServers", {"scratch"}}}, true)};
  const ClaudeAnswer declined = claude_answer(places, "scratch");
  EXPECT_EQ(declined.answer, ApprovalStore::Answer::kDeclined);
  EXPECT_EQ(declined.place, ".claude/settings.local.json");
  const ClaudeAnswer approved = claude_answer(places, "github");
  EXPECT_EQ(approved.answer, ApprovalStore::Answer::kApproved);
  EXPECT_EQ(approved.place, "~/.claude/settings.json");
}

}  // namespace
}  // namespace nib::mcp
