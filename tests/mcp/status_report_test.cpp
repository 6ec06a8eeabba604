#include "mcp/status_report.hpp"

#include <gtest/gtest.h>

namespace nib::mcp {
namespace {

TEST(StatusReport, OneLinePerServerAsNibMcpListPrintsIt) {
  ServerStatus ready{.name = "fs",
                     .state = ServerState::kReady,
                     .tools = {"read", "write"},
                     .origin = "~/.config/nib/mcp.json"};
  EXPECT_EQ(status_line(ready), "fs  ready  2 tools  ~/.config/nib/mcp.json");
  ready.tools = {"read"};
  ready.origin = "~/.claude.json (local scope)";
  EXPECT_EQ(status_line(ready), "fs  ready  1 tool  ~/.claude.json (local scope)");
  ready.origin.clear();  // a server made without one says nothing of it
  EXPECT_EQ(status_line(ready), "fs  ready  1 tool");
  const ServerStatus failed{.name = "web",
                            .state = ServerState::kFailed,
                            .detail = "the server exited with status 3\nstderr:\nno key",
                            .origin = "m.json"};
  EXPECT_EQ(status_line(failed), "web  failed  the server exited with status 3  m.json");
  const ServerStatus waiting{
      .name = "repo", .state = ServerState::kNotApproved, .origin = ".mcp.json"};
  EXPECT_EQ(status_line(waiting), "repo  not approved  (nib mcp approve repo)  .mcp.json");
  const ServerStatus connecting{.name = "slow", .origin = "m.json"};
  EXPECT_EQ(status_line(connecting), "slow  connecting  m.json");
}

TEST(StatusReport, TheReportAddsTransportToolsPromptsAndTheRestOfTheDetail) {
  ServerStatus ready{.name = "everything",
                     .state = ServerState::kReady,
                     .tools = {"echo", "get-sum"},
                     .detail = "tool bad left out: its schema does not compile\n",
                     .origin = "s.json",
                     .prompts = {{"simple-prompt", "", {}}, {"args-prompt", "", {}}},
                     .transport = "stdio: node index.js stdio"};
  EXPECT_EQ(status_report(ready),
            "everything  ready  2 tools  s.json\n"
            "  stdio: node index.js stdio\n"
            "  tools: echo, get-sum\n"
            "  prompts: /mcp__everything__simple-prompt, /mcp__everything__args-prompt\n"
            "  tool bad left out: its schema does not compile\n");
  const ServerStatus failed{.name = "web",
                            .state = ServerState::kFailed,
                            .detail = "the server exited with status 3\nstderr:\nno key\n",
                            .origin = "m.json",
                            .transport = "http: https://example.com/mcp"};
  EXPECT_EQ(status_report(failed),
            "web  failed  the server exited with status 3  m.json\n"
            "  http: https://example.com/mcp\n"
            "  stderr:\n"
            "  no key\n");
}

}  // namespace
}  // namespace nib::mcp
