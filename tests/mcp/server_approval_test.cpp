// Which configured MCP servers may start: the user's always, a project's once approved or
// allowed by name; declined ones are reported, unanswered ones left for the front end.

#include "mcp/server_approval.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace nib::mcp {
namespace {

ServerConfig approval_test_server(const std::string& name, bool from_project) {
  return {.name = name,
          .command = "run-" + name,
          .file = from_project ? "/p/.mcp.json" : "/u/mcp.json",
          .from_project = from_project,
          .origin = from_project ? ".mcp.json" : "~/mcp.json",
          .fingerprint = "print-" + name};
}

std::vector<std::string> approval_test_names(const std::vector<ServerConfig>& servers) {
  std::vector<std::string> names;
  for (const ServerConfig& server : servers) names.push_back(server.name);
  return names;
}

TEST(ServerApproval, TheUsersServersRunAndAProjectsWaitForAnAnswer) {
  nib::testing::TempDir dir;
  const ApprovalStore store(approvals_file(dir.path()));
  const ServerApprovals sorted =
      sort_by_approval({approval_test_server("mine", false), approval_test_server("theirs", true)},
                       {}, store, {}, "/p");
  EXPECT_EQ(approval_test_names(sorted.approved), (std::vector<std::string>{"mine"}));
  EXPECT_EQ(approval_test_names(sorted.awaiting), (std::vector<std::string>{"theirs"}));
  ASSERT_EQ(sorted.not_approved.size(), 1u);
  EXPECT_EQ(sorted.not_approved[0].name, "theirs");
  EXPECT_EQ(sorted.not_approved[0].state, ServerState::kNotApproved);
  EXPECT_EQ(sorted.not_approved[0].detail,
            "approve it with `nib mcp approve theirs` (remembered for this project) or "
            "--mcp-allow theirs");
  EXPECT_EQ(sorted.not_approved[0].transport, "stdio: run-theirs");
  EXPECT_TRUE(sorted.notices.empty());
}

TEST(ServerApproval, AProjectServerRunsOnceApprovedOrAllowedByName) {
  nib::testing::TempDir dir;
  ApprovalStore store(approvals_file(dir.path()));
  ASSERT_TRUE(store.approve("/p", "approved", "print-approved").ok());
  ASSERT_TRUE(store.approve("/p", "changed", "an older entry").ok());
  const std::vector<ServerConfig> servers = {approval_test_server("approved", true),
                                             approval_test_server("changed", true),
                                             approval_test_server("allowed", true)};
  EXPECT_EQ(approval_test_names(sort_by_approval(servers, {"allowed"}, store, {}, "/p").approved),
            (std::vector<std::string>{"approved", "allowed"}));
  EXPECT_EQ(approval_test_names(sort_by_approval(servers, {}, store, {}, "/elsewhere").approved),
            std::vector<std::string>{});
  EXPECT_EQ(approval_test_names(sort_by_approval(servers, {"all"}, store, {}, "/p").approved),
            (std::vector<std::string>{"approved", "changed", "allowed"}));
}

TEST(ServerApproval, ADeclinedServerIsReportedAndNotAskedAbout) {
  nib::testing::TempDir dir;
  ApprovalStore store(approvals_file(dir.path()));
  ASSERT_TRUE(store.decline("/p", "no", "print-no").ok());
  const ServerApprovals sorted =
      sort_by_approval({approval_test_server("no", true)}, {}, store, {}, "/p");
  EXPECT_TRUE(sorted.approved.empty());
  EXPECT_TRUE(sorted.awaiting.empty());
  ASSERT_EQ(sorted.notices.size(), 1u);
  EXPECT_EQ(sorted.notices[0],
            "the MCP server no of /p/.mcp.json was not started: you declined it for this "
            "project; approve it with `nib mcp approve no` (remembered for this project) or "
            "--mcp-allow no");
}

// What Claude Code recorded, as the app reads it: the user's local settings approve one and
// decline another; the project's committed settings try to approve all.
std::vector<ClaudeAnswers> approval_test_claude_answers() {
  return {
      {.place = ".claude/settings.local.json", .enabled = {"yes", "changed"}, .disabled = {"no"}},
      {.place = ".claude/settings.json", .written_by_user = false, .enable_all = true}};
}

TEST(ServerApproval, ClaudeCodesAnswersAboutDotMcpJsonServersCountAndSayWhere) {
  nib::testing::TempDir dir;
  const ApprovalStore store(approvals_file(dir.path()));
  const ServerApprovals sorted =
      sort_by_approval({approval_test_server("yes", true), approval_test_server("no", true),
                        approval_test_server("maybe", true)},
                       {}, store, approval_test_claude_answers(), "/p");
  ASSERT_EQ(approval_test_names(sorted.approved), (std::vector<std::string>{"yes"}));
  EXPECT_EQ(sorted.approved[0].origin, ".mcp.json (approved in .claude/settings.local.json)");
  // The committed settings' enableAllProjectMcpServers is not the user's word: still asked.
  EXPECT_EQ(approval_test_names(sorted.awaiting), (std::vector<std::string>{"maybe"}));
  ASSERT_EQ(sorted.notices.size(), 1u);
  EXPECT_EQ(sorted.notices[0],
            "the MCP server no of /p/.mcp.json was not started: declined in "
            ".claude/settings.local.json (disabledMcpjsonServers); approve it with `nib mcp "
            "approve no` (remembered for this project) or --mcp-allow no");
  ASSERT_EQ(sorted.not_approved.size(), 2u);
  EXPECT_EQ(sorted.not_approved[0].origin, ".mcp.json (declined in .claude/settings.local.json)");
  EXPECT_EQ(sorted.not_approved[1].origin, ".mcp.json");
}

TEST(ServerApproval, NibsOwnAnswersWinOverClaudeCodesWhichAreForDotMcpJsonOnly) {
  nib::testing::TempDir dir;
  ApprovalStore store(approvals_file(dir.path()));
  ASSERT_TRUE(store.approve("/p", "no", "print-no").ok());
  ASSERT_TRUE(store.decline("/p", "yes", "print-yes").ok());
  ServerConfig from_settings = approval_test_server("changed", true);
  from_settings.file = "/p/.nib/settings.json";
  const ServerApprovals sorted = sort_by_approval(
      {approval_test_server("no", true), approval_test_server("yes", true), from_settings}, {},
      store, approval_test_claude_answers(), "/p");
  ASSERT_EQ(approval_test_names(sorted.approved), (std::vector<std::string>{"no"}));
  EXPECT_EQ(sorted.approved[0].origin, ".mcp.json");
  ASSERT_EQ(sorted.notices.size(), 1u);
  EXPECT_NE(sorted.notices[0].find("you declined it for this project"), std::string::npos);
  // enabledMcpjsonServers names .mcp.json's servers, not those of nib's project settings.
  EXPECT_EQ(approval_test_names(sorted.awaiting), (std::vector<std::string>{"changed"}));
}

TEST(ServerApproval, TheNoticeOfAServerNotApprovedYetSaysHow) {
  EXPECT_EQ(not_approved_notice(approval_test_server("repo", true)),
            "the MCP server repo of /p/.mcp.json was not started: it is the project's and not "
            "approved yet; approve it with `nib mcp approve repo` (remembered for this project) "
            "or --mcp-allow repo");
  EXPECT_EQ(approvals_file("/u/.config/nib"), "/u/.config/nib/mcp-approvals.json");
}

}  // namespace
}  // namespace nib::mcp
