// End-to-end: a Claude Code user's setup read unchanged, through the real nib binary in print
// mode against the mock model: custom commands whose !`command`s run through the run's gate
// and sandbox with their allowed-tools honoured, and plugins with each kind of part. Outcomes
// are judged on the host (the file a refused command would have made is not there).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "support/fake_mcp_server.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class ClaudeSetupTest : public ::testing::Test {
 protected:
  NibResult run(std::vector<std::string> args) {
    return run_nib(args, dir_.path(),
                   {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock-model"}});
  }
  bool exists(const std::string& relative) const {
    return std::filesystem::exists(dir_.path() / relative);
  }
  std::string first_prompt() const {
    return server_.requests().at(0).body["messages"][1]["content"];
  }

  MockModelServer server_;
  TempDir dir_;
};

// Claude Code's commit-command shape: allowed-tools naming the commands it may run, and the
// context gathered by !`...` before the prompt is sent.
constexpr const char* kStatusCommand =
    "---\n"
    "allowed-tools: Bash(echo:*), Bash(touch granted.txt)\n"
    "description: Act on the branch\n"
    "---\n"
    "## Context\n"
    "- Branch: !`echo branch-$1`\n"
    "```!\n"
    "echo block-output\n"
    "```\n"
    "Then act.\n";

TEST_F(ClaudeSetupTest, ACommandsBangCommandsRunAndItsAllowedToolsHoldForItsRun) {
  dir_.write(".claude/commands/status.md", kStatusCommand);
  server_.enqueue(
      MockReply::tool_calls({{"call_granted", "bash", R"({"command":"touch granted.txt"})"},
                             {"call_other", "bash", R"({"command":"touch refused.txt"})"}}));
  server_.enqueue(MockReply::text("Done."));
  // Ask mode asks before every command, and nobody can be asked in print mode: only the
  // command's allowed-tools let anything run.
  const auto result = run({"-p", "/status main", "--permission-mode", "ask"});

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(first_prompt(), HasSubstr("- Branch: branch-main\nblock-output\nThen act."));
  EXPECT_TRUE(exists("granted.txt")) << result.err;
  EXPECT_FALSE(exists("refused.txt"));
}

TEST_F(ClaudeSetupTest, ABangCommandNothingAllowsIsNotRunAndNothingIsSent) {
  dir_.write(".claude/commands/make.md", "Made: !`touch made.txt`\n");
  const auto result = run({"-p", "/make", "--permission-mode", "ask"});

  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("/make: !`touch made.txt` was not run"));
  EXPECT_FALSE(exists("made.txt"));
  EXPECT_TRUE(server_.requests().empty());
}

// The hooks that decide whether a prompt is sent decide before its commands run.
TEST_F(ClaudeSetupTest, APromptTheHooksRefuseRunsNoneOfItsCommands) {
  dir_.write(".claude/settings.json",
             R"json({"hooks": {"UserPromptSubmit": [{"hooks": [
                 {"type": "command", "command": "echo not now >&2; exit 2"}]}]}})json");
  dir_.write(".claude/commands/make.md", "Made: !`touch made.txt`\n");
  const auto result = run({"-p", "/make"});

  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("not now"));
  EXPECT_FALSE(exists("made.txt"));
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(ClaudeSetupTest, ADenyRuleOutranksACommandsAllowedTools) {
  dir_.write(".claude/settings.json", R"json({"permissions": {"deny": ["Bash(touch:*)"]}})json");
  dir_.write(".claude/commands/make.md",
             "---\nallowed-tools: Bash(touch:*)\n---\nMade: !`touch made.txt`\n");
  const auto result = run({"-p", "/make"});

  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("was not run"));
  EXPECT_FALSE(exists("made.txt"));
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(ClaudeSetupTest, ABrokenAllowedToolsRuleIsNamedAndNothingRuns) {
  dir_.write(".claude/commands/make.md",
             "---\nallowed-tools: Bash(touch\n---\nMade: !`touch made.txt`\n");
  const auto result = run({"-p", "/make"});

  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.err, HasSubstr("allowed-tools"));
  EXPECT_FALSE(exists("made.txt"));
}

// What a command's user passes as arguments is never a command: not when it is appended, not
// when it fills a placeholder in the text, and inside a command it is one quoted word.
TEST_F(ClaudeSetupTest, ArgumentsNeverRunAsCommands) {
  dir_.write(".claude/commands/summ.md", "Summarise this.\n");
  dir_.write(".claude/commands/show.md", "Showing $1: !`echo $1`\n");
  server_.enqueue(MockReply::text("Summary."));
  server_.enqueue(MockReply::text("Shown."));
  ASSERT_EQ(run({"-p", "/summ hello !`touch appended.txt`"}).exit_code, 0);
  const auto shown = run({"-p", "/show \"x;touch filled.txt\""});

  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_FALSE(exists("appended.txt"));
  EXPECT_FALSE(exists("filled.txt"));
  EXPECT_EQ(server_.requests().at(1).body["messages"][1]["content"],
            "Showing x;touch filled.txt: x;touch filled.txt");
}

// allowed-tools spare ask mode's questions and reach no further than auto mode: a command file
// from a repository cannot let the model leave the sandbox or change a protected file.
TEST_F(ClaudeSetupTest, AGrantNeverLetsACallLeaveTheSandboxOrTouchAProtectedFile) {
  dir_.write(".claude/commands/build.md",
             "---\nallowed-tools: Bash(unsandboxed:*), Bash(network:*), Write\n---\nBuild it.\n");
  dir_.write(".git/hooks/.keep", "");
  server_.enqueue(MockReply::tool_calls(
      {{"call_out", "bash", R"({"command":"touch outside.txt","unsandboxed":true})"},
       {"call_hook", "write", R"({"path":".git/hooks/pre-commit","content":"echo pwned"})"},
       {"call_in", "write", R"({"path":"built.txt","content":"ok"})"}}));
  server_.enqueue(MockReply::text("Built."));
  const auto result = run({"-p", "/build", "--permission-mode", "ask"});

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(exists("outside.txt"));
  EXPECT_FALSE(exists(".git/hooks/pre-commit"));
  EXPECT_TRUE(exists("built.txt")) << "what auto mode would run, the grant lets run";
}

// A Claude Code user's plugin, in Claude Code's documented formats: a local marketplace the
// user's settings declare (extraKnownMarketplaces) and enable a plugin of (enabledPlugins),
// the plugin with a command, an agent, a hook and an MCP server, and a second plugin whose
// plugin.json is broken.
class ClaudePluginTest : public ClaudeSetupTest {
 protected:
  void SetUp() override {
    const std::string market = (home_.path() / "market").string();
    home_.write("market/.claude-plugin/marketplace.json",
                json{{"name", "team-tools"},
                     {"owner", {{"name", "Team"}}},
                     {"plugins",
                      {{{"name", "my-plugin"}, {"source", "./plugins/my-plugin"}},
                       {{"name", "broken"}, {"source", "./plugins/broken"}}}}}
                    .dump());
    home_.write("market/plugins/my-plugin/.claude-plugin/plugin.json",
                R"({"name": "my-plugin", "version": "1.0.0", "description": "Team tools"})");
    home_.write("market/plugins/my-plugin/commands/hello.md",
                "---\ndescription: Say hello\n---\n"
                "Root: !`echo plugin at ${CLAUDE_PLUGIN_ROOT}`\nSay hello to $ARGUMENTS.\n");
    home_.write("market/plugins/my-plugin/agents/reviewer.md",
                "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\n"
                "You are the plugin's reviewer.\n");
    home_.write("market/plugins/my-plugin/hooks/hooks.json",
                json{{"hooks",
                      {{"PreToolUse",
                        {{{"matcher", "Bash"},
                          {"hooks",
                           {{{"type", "command"},
                             {"command", "python3 ${CLAUDE_PLUGIN_ROOT}/hooks/guard.py"}}}}}}}}}}
                    .dump());
    home_.write("market/plugins/my-plugin/hooks/guard.py",
                "import json, os, sys\n"
                "call = json.load(sys.stdin)\n"
                "if 'forbidden' in call['tool_input'].get('command', ''):\n"
                "    print('the plugin at', os.environ['CLAUDE_PLUGIN_ROOT'], 'forbids it',\n"
                "          file=sys.stderr)\n"
                "    sys.exit(2)\n");
    home_.write("market/plugins/my-plugin/.mcp.json",
                json{{"mcpServers", {{"fake", fake_mcp_server("normal")}}}}.dump());
    home_.write("market/plugins/broken/.claude-plugin/plugin.json", "{\"name\": ");
    home_.write(
        ".claude/settings.json",
        json{{"enabledPlugins", {{"my-plugin@team-tools", true}, {"broken@team-tools", true}}},
             {"extraKnownMarketplaces",
              {{"team-tools", {{"source", {{"source", "directory"}, {"path", market}}}}}}},
             {"permissions", {{"allow", {"mcp__plugin_my-plugin_fake__echo"}}}}}
            .dump());
  }
  NibResult run_with_plugins(std::vector<std::string> args) {
    return run_nib(args, dir_.path(),
                   {{"OPENAI_BASE_URL", server_.base_url()},
                    {"NIB_MODEL", "mock-model"},
                    {"HOME", home_.path().string()}});
  }
  std::string root() const { return (home_.path() / "market/plugins/my-plugin").string(); }
  std::string tool_result(std::size_t request, const std::string& id) const {
    const auto requests = server_.requests();  // kept: the loop reads into it
    for (const json& message : requests.at(request).body["messages"]) {
      if (message.value("tool_call_id", "") == id) return message["content"].dump();
    }
    return "";
  }

  TempDir home_;
};

TEST_F(ClaudePluginTest, NibPluginsListsEachPartAndTheBrokenPluginWithItsFile) {
  const auto result = run_with_plugins({"plugins"});

  EXPECT_EQ(result.exit_code, 1) << "a plugin was left out";
  EXPECT_THAT(result.out, HasSubstr("my-plugin@team-tools 1.0.0"));
  EXPECT_THAT(result.out, HasSubstr("commands: /my-plugin:hello"));
  EXPECT_THAT(result.out, HasSubstr("agents: my-plugin:reviewer"));
  EXPECT_THAT(result.out, HasSubstr("hooks: PreToolUse"));
  EXPECT_THAT(result.out, HasSubstr("MCP servers: plugin_my-plugin_fake"));
  EXPECT_THAT(result.out, Not(HasSubstr("broken@")));
  EXPECT_THAT(result.err, HasSubstr("broken@team-tools"));
  EXPECT_THAT(result.err, HasSubstr("plugins/broken/.claude-plugin/plugin.json"));
}

TEST_F(ClaudePluginTest, APluginCommandRunsItsBangCommandInPrintMode) {
  server_.enqueue(MockReply::text("Hello!"));
  const auto result = run_with_plugins({"-p", "/my-plugin:hello world"});

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(first_prompt(), HasSubstr("Root: plugin at " + root() + "\nSay hello to world."));
  EXPECT_THAT(result.err, HasSubstr("a plugin was left out or changed: "))
      << "the broken plugin is reported at the start of a run too";
}

TEST_F(ClaudePluginTest, TheTaskToolStartsAPluginAgent) {
  server_.enqueue(MockReply::tool_calls(
      {{"call_task", "task",
        json{{"description", "review"}, {"prompt", "review it"}, {"agent", "my-plugin:reviewer"}}
            .dump()}}));
  server_.enqueue(MockReply::text("Looks fine."));
  server_.enqueue(MockReply::text("The reviewer says it looks fine."));
  const auto result = run_with_plugins({"-p", "review the code"});

  ASSERT_EQ(result.exit_code, 0) << result.err;
  ASSERT_GE(server_.requests().size(), 3u);
  const std::string subagent_system = server_.requests().at(1).body["messages"][0]["content"];
  EXPECT_THAT(subagent_system, HasSubstr("You are the plugin's reviewer."));
  EXPECT_THAT(tool_result(2, "call_task"), HasSubstr("Looks fine."));
}

TEST_F(ClaudePluginTest, APluginHookBlocksACall) {
  server_.enqueue(
      MockReply::tool_calls({{"call_bash", "bash", R"({"command":"touch forbidden.txt"})"}}));
  server_.enqueue(MockReply::text("Blocked."));
  const auto result = run_with_plugins({"-p", "make the file"});

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(exists("forbidden.txt"));
  // The hook found its plugin's folder in its command and in its environment.
  EXPECT_THAT(tool_result(1, "call_bash"), HasSubstr("the plugin at " + root() + " forbids it"));
}

TEST_F(ClaudePluginTest, APluginMcpServersToolIsCalled) {
  server_.enqueue(MockReply::tool_calls(
      {{"call_echo", "mcp__plugin_my-plugin_fake__echo", R"({"text":"from the plugin"})"}}));
  server_.enqueue(MockReply::text("Echoed."));
  const auto result = run_with_plugins({"-p", "echo it"});

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(tool_result(1, "call_echo"), HasSubstr("from the plugin"));
}

}  // namespace
}  // namespace nib::testing
