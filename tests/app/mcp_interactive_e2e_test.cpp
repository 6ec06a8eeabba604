// End-to-end: the MCP client's user-facing parts in the interactive mode, through the real nib
// binary in a real terminal (tmux) and the mock model: /mcp, a server's prompts as slash
// commands (the official server-everything's), and the question whether to start a project's
// servers. Servers are awaited by a first turn whose tool calls wait for them (the registry
// waits while a server is connecting), never by time.

#include <gtest/gtest.h>

#include "support/fake_mcp_server.hpp"
#include "support/mcp_packages.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "support/tmux_session.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

class McpInteractiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!TmuxSession::available()) GTEST_SKIP() << "tmux is not installed";
    // The servers' tools run without a question (auto mode asks before each MCP call).
    dir_.write(".nib/settings.json",
               json{{"permissions",
                     {{"allow", {"mcp__fake", "mcp__broken", "mcp__everything", "mcp__two"}}}}}
                   .dump());
  }

  std::map<std::string, std::string> env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock-model"}};
  }

  // Starts nib with `args` in a wide terminal and waits for its footer.
  std::unique_ptr<TmuxSession> start(std::vector<std::string> args = {}) {
    TmuxOptions options;
    options.command = {NIB_BINARY};
    options.command.insert(options.command.end(), args.begin(), args.end());
    options.env = env();
    options.cwd = dir_.path();
    options.columns = 180;
    options.rows = 50;
    auto tmux = std::make_unique<TmuxSession>(options);
    EXPECT_TRUE(tmux->wait_for_text("mock-model · ")) << tmux->screen();
    return tmux;
  }

  std::unique_ptr<TmuxSession> start_with(const json& servers) {
    dir_.write("servers.json", json{{"mcpServers", servers}}.dump());
    return start({"--mcp-config", "servers.json"});
  }

  // Sends `text` and waits until `answer` is on the screen and nib is idle again.
  static void exchange(const TmuxSession& tmux, const std::string& text,
                       const std::string& answer) {
    tmux.type(text);
    tmux.press("Enter");
    EXPECT_TRUE(tmux.wait_for([answer](const std::string& screen) {
      return contains(screen, answer) && !contains(screen, "esc to interrupt");
    })) << tmux.screen();
  }

  json last_user_content(std::size_t request) const {
    return server_.requests().at(request).body["messages"].back()["content"];
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(McpInteractiveTest, SlashMcpShowsEachServersStateTransportToolsAndPrompts) {
  server_.enqueue(MockReply::tool_calls(
      {{"c1", "mcp__fake__echo", R"({"text":"x"})"}, {"c2", "mcp__broken__anything", "{}"}}));
  server_.enqueue(MockReply::text("both settled"));
  auto tmux =
      start_with({{"fake", fake_mcp_server("prompts")}, {"broken", fake_mcp_server("exit")}});
  exchange(*tmux, "wait for them", "both settled");
  tmux->type("/mcp");  // the built-in command is the menu's first choice; the prompts follow
  tmux->press("Enter");
  ASSERT_TRUE(tmux->wait_for_text("fatal: missing configuration FOO")) << tmux->screen();
  const std::string screen = tmux->screen();
  const std::string file = "servers.json";  // as --mcp-config named it
  EXPECT_TRUE(contains(screen, "fake  ready  5 tools  " + file)) << screen;
  EXPECT_TRUE(contains(screen, "  stdio: python3 ")) << screen;
  EXPECT_TRUE(contains(screen, "  tools: echo, slow, crash, big, add_prompt")) << screen;
  EXPECT_TRUE(contains(screen, "  prompts: /mcp__fake__greet, /mcp__fake__picture")) << screen;
  EXPECT_TRUE(contains(screen, "broken  failed  the server exited with status 3  " + file))
      << screen;
}

TEST_F(McpInteractiveTest, APromptOfServerEverythingIsOfferedAndBecomesTheUsersTurn) {
  const std::string index =
      mcp_package_file("@modelcontextprotocol/server-everything", "dist/index.js");
  NIB_SKIP_WITHOUT(index);
  server_.enqueue(MockReply::tool_calls({{"c1", "mcp__everything__echo", R"({"message":"x"})"}}));
  server_.enqueue(MockReply::text("ready now"));
  server_.enqueue(MockReply::text("It is sunny."));
  auto tmux = start_with({{"everything", {{"command", "node"}, {"args", {index, "stdio"}}}}});
  exchange(*tmux, "wait for it", "ready now");
  tmux->type("/help");
  tmux->press("Enter");
  ASSERT_TRUE(tmux->wait_for_text("MCP prompts (/mcp shows the servers):")) << tmux->screen();
  EXPECT_TRUE(contains(tmux->screen(), "  /mcp__everything__args-prompt <city> [state]  A prompt"))
      << tmux->screen();

  tmux->type("/mcp__everything__ar");
  // The menu's one choice, selected, with its arguments and description.
  ASSERT_TRUE(
      tmux->wait_for_text("› /mcp__everything__args-prompt <city> [state]  A prompt with "
                          "two arguments, one required and one optional (MCP server "
                          "everything)"))
      << tmux->screen();
  tmux->press("Tab");
  ASSERT_TRUE(tmux->wait_for_text("> /mcp__everything__args-prompt")) << tmux->screen();
  // Without its required argument: said, and nothing is sent.
  tmux->press("Enter");
  ASSERT_TRUE(tmux->wait_for_text("needs <city> (Name of the city)")) << tmux->screen();
  EXPECT_EQ(server_.requests().size(), 2u);

  exchange(*tmux, "/mcp__everything__args-prompt Chicago", "It is sunny.");
  EXPECT_EQ(last_user_content(2), "What's weather in Chicago?");
}

TEST_F(McpInteractiveTest, AFirstPromptThatCouldNotBeFetchedLeavesTheSessionStartHooksForTheNext) {
  dir_.write(".nib/settings.json",
             json{{"permissions", {{"allow", {"mcp__fake"}}}},
                  {"hooks",
                   {{"SessionStart",
                     {{{"matcher", "startup"},
                       {"hooks", {{{"type", "command"}, {"command", "echo on-branch-main"}}}}}}}}}}
                 .dump());
  server_.enqueue(MockReply::text("Hello."));
  auto tmux = start_with({{"fake", fake_mcp_server("prompts")}});
  // Without a prompt (which would start the session), until /mcp shows the server ready: a
  // prompt command is refused without a run while its server is still starting.
  bool ready = false;
  for (int attempt = 0; attempt < 100 && !ready; ++attempt) {
    tmux->type("/mcp");
    tmux->press("Enter");
    ready = tmux->wait_for_text("fake  ready", std::chrono::milliseconds(300));
  }
  ASSERT_TRUE(ready) << tmux->screen();
  exchange(*tmux, "/mcp__fake__greet !fail", "Unknown prompt: greet");
  EXPECT_TRUE(server_.requests().empty()) << "nothing went to the model";

  exchange(*tmux, "hello", "Hello.");
  const std::string sent = last_user_content(0).dump();
  EXPECT_TRUE(contains(sent, "on-branch-main")) << sent;
}

TEST_F(McpInteractiveTest, AProjectsServersAreAskedAboutOnceAndTheAnswersRemembered) {
  dir_.write(
      ".mcp.json",
      json{{"mcpServers", {{"one", fake_mcp_server("normal")}, {"two", fake_mcp_server("normal")}}}}
          .dump());
  server_.enqueue(MockReply::tool_calls({{"c1", "mcp__two__echo", R"({"text":"approved"})"}}));
  server_.enqueue(MockReply::text("two answered"));
  auto tmux = start();
  ASSERT_TRUE(tmux->wait_for_text("Start the MCP server one that this project configures?"))
      << tmux->screen();
  std::string screen = tmux->screen();
  EXPECT_TRUE(contains(screen, "stdio: python3 ")) << screen;
  EXPECT_TRUE(contains(screen, "from " + (dir_.path() / ".mcp.json").string())) << screen;
  EXPECT_TRUE(contains(screen, "› Yes, start one (remembered for this project)")) << screen;
  EXPECT_TRUE(contains(screen, "Yes, and the 1 other server this project asks for")) << screen;
  EXPECT_TRUE(contains(screen, "No (remembered; nib mcp approve one changes it)")) << screen;
  tmux->press("Down");
  tmux->press("Down");
  tmux->press("Enter");
  ASSERT_TRUE(tmux->wait_for_text("Start the MCP server two that this project configures?"))
      << tmux->screen();
  EXPECT_TRUE(contains(tmux->screen(), "The MCP server one stays off for this project"))
      << tmux->screen();
  tmux->press("Enter");
  ASSERT_TRUE(tmux->wait_for_text("Starting the MCP server two")) << tmux->screen();

  // Started at once: its tool serves the first prompt.
  exchange(*tmux, "use two", "two answered");
  const auto requests = server_.requests();
  bool answered = false;  // a note on the servers may follow the result (when it changed)
  for (const auto& message : requests.at(1).body["messages"]) {
    answered |= message["role"] == "tool" && message["content"] == "echo: approved";
  }
  EXPECT_TRUE(answered) << requests.at(1).body["messages"].dump();
  tmux->press("C-d");
  ASSERT_TRUE(tmux->wait_for_exit()) << tmux->screen();

  // Remembered: the next start asks nothing, and runs only two.
  const NibResult listed = run_nib({"mcp", "list"}, dir_.path(), env());
  EXPECT_TRUE(contains(listed.out, "one  not approved")) << listed.out;
  EXPECT_TRUE(contains(listed.out, "two  ready  4 tools")) << listed.out;
  auto again = start();
  EXPECT_FALSE(contains(again->screen(), "Start the MCP server")) << again->screen();
}

}  // namespace
}  // namespace nib::testing
