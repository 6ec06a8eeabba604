#include "app/cli.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace nib::app {
namespace {

ParseOutcome parse(std::vector<const char*> args) {
  args.insert(args.begin(), "nib");
  return parse_command_line(static_cast<int>(args.size()), args.data());
}

TEST(CliTest, PrintModeWithPromptAndFlags) {
  const auto outcome = parse({"-p", "read", "the README", "--model", "m", "--max-turns", "7",
                              "--output-format", "stream-json", "--tools", "read, bash"});
  ASSERT_TRUE(outcome.options);
  const auto& options = *outcome.options;
  EXPECT_TRUE(options.print);
  EXPECT_EQ(options.prompt, "read the README");
  EXPECT_EQ(options.model, "m");
  EXPECT_EQ(options.max_turns, 7);
  EXPECT_EQ(options.output_format, OutputFormat::kStreamJson);
  EXPECT_EQ(options.tools, (std::vector<std::string>{"read", "bash"}));
}

TEST(CliTest, NoSandboxIsAFlagAndTheSandboxIsOnByDefault) {
  EXPECT_FALSE(parse({"-p", "hi"}).options->no_sandbox);
  EXPECT_TRUE(parse({"-p", "hi", "--no-sandbox"}).options->no_sandbox);
}

TEST(CliTest, WebSearchIsAFlagAndOffByDefault) {
  EXPECT_FALSE(parse({"-p", "hi"}).options->web_search);
  EXPECT_TRUE(parse({"-p", "hi", "--web-search"}).options->web_search);
}

TEST(CliTest, BadUsageExitsTwoWithAMessage) {
  for (const auto& args : std::vector<std::vector<const char*>>{
           {"--output-format", "xml"}, {"--max-turns", "0"}, {"--bogus"}}) {
    const auto outcome = parse(args);
    EXPECT_FALSE(outcome.options);
    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_NE(outcome.message.find("nib --help"), std::string::npos);
  }
}

TEST(CliTest, HelpExitsZero) {
  const auto outcome = parse({"--help"});
  EXPECT_FALSE(outcome.options);
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_NE(outcome.message.find("--output-format"), std::string::npos);
}

TEST(CliTest, GlobalFlagsBeforeASubcommandComeWithIt) {
  const auto outcome = parse({"--no-sandbox", "--permission-mode", "ask", "--ask", "read", "tool",
                              "bash", R"({"command":"ls"})"});
  ASSERT_TRUE(outcome.options) << outcome.message;
  EXPECT_TRUE(outcome.options->no_sandbox);
  EXPECT_EQ(outcome.options->permission_mode, "ask");
  EXPECT_EQ(outcome.options->ask, (std::vector<std::string>{"read"}));
  EXPECT_TRUE(outcome.options->prompt.empty());
  const auto* tool = std::get_if<ToolArgs>(&outcome.subcommand);
  ASSERT_NE(tool, nullptr);
  EXPECT_EQ(tool->name, "bash");
  EXPECT_EQ(tool->arguments, R"({"command":"ls"})");
  EXPECT_EQ(std::get<ToolArgs>(parse({"tool", "ls"}).subcommand).arguments, "{}");
}

TEST(CliTest, OnlyTheFirstWordOfTheCommandLineNamesASubcommand) {
  // After a word of the prompt, or -p, a subcommand's name is a word of the prompt.
  for (const auto& [args, prompt] : std::vector<std::pair<std::vector<const char*>, std::string>>{
           {{"fix", "the", "tool"}, "fix the tool"},
           {{"-p", "tool", "use", "is", "slow"}, "tool use is slow"},
           {{"--", "sessions", "get", "lost"}, "sessions get lost"},
           {{"--model", "m", "--", "mcp", "list"}, "mcp list"},
           {{"sessions are lost"}, "sessions are lost"}}) {
    const auto outcome = parse(args);
    ASSERT_TRUE(outcome.options) << prompt << ": " << outcome.message;
    EXPECT_EQ(outcome.options->prompt, prompt);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(outcome.subcommand)) << prompt;
  }
  EXPECT_TRUE(std::holds_alternative<SessionsArgs>(parse({"sessions"}).subcommand));
  // Within a subcommand, another's name is an argument like any other.
  EXPECT_EQ(std::get<McpGetArgs>(std::get<McpArgs>(parse({"mcp", "get", "list"}).subcommand)).name,
            "list");
}

TEST(CliTest, EverySubcommandAndActionAnswersHelp) {
  for (const std::vector<const char*>& path :
       std::vector<std::vector<const char*>>{{"tool"},
                                             {"sessions"},
                                             {"permissions"},
                                             {"permissions", "explain"},
                                             {"permissions", "check"},
                                             {"hooks"},
                                             {"hooks", "test"},
                                             {"mcp"},
                                             {"mcp", "list"},
                                             {"mcp", "get"},
                                             {"mcp", "add"},
                                             {"mcp", "add-json"},
                                             {"mcp", "remove"},
                                             {"mcp", "approve"},
                                             {"mcp", "serve"}}) {
    std::string usage = "Usage: nib";
    for (const char* word : path) usage += std::string(" ") + word;
    for (const char* flag : {"--help", "-h"}) {
      std::vector<const char*> args = path;
      args.push_back(flag);
      const auto outcome = parse(args);
      EXPECT_FALSE(outcome.options) << usage;
      EXPECT_EQ(outcome.exit_code, 0) << usage << ": " << outcome.message;
      EXPECT_NE(outcome.message.find(usage + " "), std::string::npos) << outcome.message;
    }
  }
  // Not the name of a server to remove.
  const auto remove = parse({"mcp", "remove", "--help"});
  EXPECT_EQ(remove.exit_code, 0);
  EXPECT_NE(remove.message.find("--scope"), std::string::npos) << remove.message;
}

TEST(CliTest, AnUnknownActionOrAMissingArgumentExitsTwoSayingWhereTheHelpIs) {
  const auto unknown = parse({"mcp", "frobnicate"});
  EXPECT_FALSE(unknown.options);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(
      unknown.message.find(
          "nib mcp: no action \"frobnicate\"; one of: list, get, add, add-json, remove, approve, "
          "serve"),
      std::string::npos)
      << unknown.message;
  EXPECT_NE(unknown.message.find("Run 'nib mcp --help' for usage."), std::string::npos);
  const auto none = parse({"permissions"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.message.find("nib permissions: which action? one of: explain, check"),
            std::string::npos)
      << none.message;
  for (const auto& [args, help] : std::vector<std::pair<std::vector<const char*>, std::string>>{
           {{"tool"}, "nib tool --help"},
           {{"tool", "read", "{}", "extra"}, "nib tool --help"},
           {{"sessions", "are", "lost"}, "nib sessions --help"},
           {{"hooks", "test"}, "nib hooks test --help"},
           {{"hooks", "test", "Stop", "--input"}, "nib hooks test --help"},
           {{"mcp", "get"}, "nib mcp get --help"},
           {{"mcp", "remove", "x", "--scope", "global"}, "nib mcp remove --help"},
           {{"permissions", "explain"}, "nib permissions explain --help"},
           {{"tool", "--no-sandbox", "bash"}, "nib tool --help"}}) {
    const auto outcome = parse(args);
    EXPECT_FALSE(outcome.options) << help;
    EXPECT_EQ(outcome.exit_code, 2) << help;
    EXPECT_NE(outcome.message.find("Run '" + help + "' for usage."), std::string::npos)
        << outcome.message;
  }
}

TEST(CliTest, PermissionsAndHooksArguments) {
  const auto command = std::get<PermissionsExplainArgs>(
      std::get<PermissionsArgs>(parse({"permissions", "explain", "git log"}).subcommand));
  EXPECT_FALSE(command.tool);
  EXPECT_EQ(command.call, "git log");
  const auto call = std::get<PermissionsExplainArgs>(std::get<PermissionsArgs>(
      parse({"permissions", "explain", "read", R"({"path":"a"})"}).subcommand));
  EXPECT_EQ(call.tool, "read");
  EXPECT_EQ(call.call, R"({"path":"a"})");
  EXPECT_TRUE(std::holds_alternative<PermissionsCheckArgs>(
      std::get<PermissionsArgs>(parse({"permissions", "check"}).subcommand)));
  const auto hooks =
      std::get<HooksTestArgs>(parse({"hooks", "test", "Stop", "--input", "in.json"}).subcommand);
  EXPECT_EQ(hooks.event, "Stop");
  EXPECT_EQ(hooks.input, "in.json");
}

TEST(CliTest, McpAddKeepsItsSyntax) {
  const auto stdio = parse({"mcp", "add", "fake", "--scope", "project", "-e", "K=v", "--env",
                            "L=w=x", "--", "npx", "-y", "server", "--port", "1"});
  ASSERT_TRUE(stdio.options) << stdio.message;
  const auto added = std::get<McpAddArgs>(std::get<McpArgs>(stdio.subcommand));
  EXPECT_EQ(added.name, "fake");
  EXPECT_EQ(added.scope, McpScope::kProject);
  EXPECT_EQ(added.env,
            (std::vector<std::pair<std::string, std::string>>{{"K", "v"}, {"L", "w=x"}}));
  EXPECT_EQ(added.command, (std::vector<std::string>{"npx", "-y", "server", "--port", "1"}));
  EXPECT_FALSE(added.url);

  const auto http = std::get<McpAddArgs>(std::get<McpArgs>(
      parse({"mcp", "add", "web", "--url", "http://h/mcp", "--header", "Authorization: Bearer t"})
          .subcommand));
  EXPECT_EQ(http.scope, McpScope::kUser);
  EXPECT_EQ(http.url, "http://h/mcp");
  EXPECT_EQ(http.headers,
            (std::vector<std::pair<std::string, std::string>>{{"Authorization", "Bearer t"}}));
  EXPECT_TRUE(http.command.empty());

  for (const auto& args : std::vector<std::vector<const char*>>{
           {"mcp", "add", "x"},                                  // neither a command nor a URL
           {"mcp", "add", "x", "--"},                            // nothing after --
           {"mcp", "add", "x", "--url", "http://h", "--", "c"},  // both
           {"mcp", "add", "x", "-e", "K", "--", "c"},            // not NAME=VALUE
           {"mcp", "add", "x", "--url", "http://h", "--header", "K"},
           {"mcp", "add", "x", "--scope", "global", "--", "c"}}) {
    const auto outcome = parse(args);
    EXPECT_EQ(outcome.exit_code, 2) << args.back() << ": " << outcome.message;
    EXPECT_NE(outcome.message.find("nib mcp add --help"), std::string::npos) << outcome.message;
  }
}

McpAddArgs parsed_mcp_add(std::vector<const char*> args) {
  const auto outcome = parse(std::move(args));
  EXPECT_TRUE(outcome.options) << outcome.message;
  if (!outcome.options) return {};
  return std::get<McpAddArgs>(std::get<McpArgs>(outcome.subcommand));
}

// Claude Code's `mcp add`: options before NAME, the command without -- (every word after it its
// own, nib's options among them), a URL with --transport, -H, -s and its three scopes.
TEST(CliTest, McpAddTakesClaudeCodesSyntax) {
  const McpAddArgs fs = parsed_mcp_add(
      {"mcp", "add", "fs", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"});
  EXPECT_EQ(fs.name, "fs");
  EXPECT_EQ(fs.scope, McpScope::kUser);
  EXPECT_EQ(fs.command, (std::vector<std::string>{
                            "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}));
  EXPECT_FALSE(fs.url);

  const McpAddArgs db =
      parsed_mcp_add({"mcp", "add", "-s", "project", "-e", "K=v", "--env", "L=w", "db", "python3",
                      "-m", "srv", "-e", "x", "--", "-s", "local"});
  EXPECT_EQ(db.scope, McpScope::kProject);
  EXPECT_EQ(db.env, (std::vector<std::pair<std::string, std::string>>{{"K", "v"}, {"L", "w"}}));
  EXPECT_EQ(db.command,
            (std::vector<std::string>{"python3", "-m", "srv", "-e", "x", "--", "-s", "local"}));
  const McpAddArgs dashes =
      parsed_mcp_add({"mcp", "add", "--scope", "local", "x", "-e", "K=v", "--", "npx", "-y"});
  EXPECT_EQ(dashes.scope, McpScope::kLocal);
  EXPECT_EQ(dashes.command, (std::vector<std::string>{"npx", "-y"}));
  EXPECT_EQ(parsed_mcp_add({"mcp", "add", "x", "-e", "K=v", "python3"}).command,
            std::vector<std::string>{"python3"});

  const McpAddArgs web =
      parsed_mcp_add({"mcp", "add", "-s", "user", "--transport", "http", "web", "https://h/mcp",
                      "-H", "Authorization: Bearer x", "--header", "X-Team:  core"});
  EXPECT_EQ(web.scope, McpScope::kUser);
  EXPECT_EQ(web.url, "https://h/mcp");
  EXPECT_FALSE(web.sse);
  EXPECT_EQ(web.headers, (std::vector<std::pair<std::string, std::string>>{
                             {"Authorization", "Bearer x"}, {"X-Team", "core"}}));
  EXPECT_TRUE(web.command.empty());
  EXPECT_EQ(parsed_mcp_add({"mcp", "add", "-t", "http", "local", "localhost:8080/mcp"}).url,
            "localhost:8080/mcp");
  EXPECT_EQ(parsed_mcp_add({"mcp", "add", "site", "https://h/mcp"}).url, "https://h/mcp");
  const McpAddArgs old = parsed_mcp_add({"mcp", "add", "-t", "sse", "old", "https://h/sse"});
  EXPECT_TRUE(old.sse);
  EXPECT_EQ(old.url, "https://h/sse");
  EXPECT_EQ(parsed_mcp_add({"mcp", "add", "-t", "stdio", "x", "https://h"}).command,
            std::vector<std::string>{"https://h"});

  for (const auto& args : std::vector<std::vector<const char*>>{
           {"mcp", "add", "-t", "http", "web"},                       // no URL
           {"mcp", "add", "-t", "websocket", "web", "wss://h"},       // no such transport
           {"mcp", "add", "x", "https://h", "--url", "https://i"},    // two URLs
           {"mcp", "add", "-t", "stdio", "x", "--url", "https://h"},  // a URL for stdio
           {"mcp", "add", "-s", "global", "x", "npx"}}) {
    const auto outcome = parse(args);
    EXPECT_EQ(outcome.exit_code, 2) << args.back() << ": " << outcome.message;
    EXPECT_NE(outcome.message.find("nib mcp add --help"), std::string::npos) << outcome.message;
  }
}

TEST(CliTest, McpAddJsonAndRemoveTakeClaudeCodesScopes) {
  const auto outcome = parse(
      {"mcp", "add-json", "fs", R"({"command": "npx", "args": ["-y", "pkg"]})", "-s", "local"});
  ASSERT_TRUE(outcome.options) << outcome.message;
  const auto added = std::get<McpAddJsonArgs>(std::get<McpArgs>(outcome.subcommand));
  EXPECT_EQ(added.name, "fs");
  EXPECT_EQ(added.entry, R"({"command": "npx", "args": ["-y", "pkg"]})");
  EXPECT_EQ(added.scope, McpScope::kLocal);
  EXPECT_EQ(
      std::get<McpAddJsonArgs>(std::get<McpArgs>(parse({"mcp", "add-json", "a", "{}"}).subcommand))
          .scope,
      McpScope::kUser);
  EXPECT_EQ(parse({"mcp", "add-json", "fs"}).exit_code, 2);
  const auto removed = std::get<McpRemoveArgs>(
      std::get<McpArgs>(parse({"mcp", "remove", "-s", "local", "fs"}).subcommand));
  EXPECT_EQ(removed.scope, McpScope::kLocal);
}

TEST(CliTest, McpServeAsksAboutItsToolsAndTheGlobalOnes) {
  const auto outcome = parse({"--ask", "read", "mcp", "serve", "--ask", "bash, edit"});
  ASSERT_TRUE(outcome.options) << outcome.message;
  EXPECT_EQ(outcome.options->ask, (std::vector<std::string>{"read"}));
  EXPECT_EQ(std::get<McpServeArgs>(std::get<McpArgs>(outcome.subcommand)).ask,
            (std::vector<std::string>{"bash", "edit"}));
  const auto removed =
      std::get<McpRemoveArgs>(std::get<McpArgs>(parse({"mcp", "remove", "x"}).subcommand));
  EXPECT_EQ(removed.name, "x");
  EXPECT_FALSE(removed.scope);
}

}  // namespace
}  // namespace nib::app

namespace nib::app {
namespace {

// The command lines the Claude Agent SDK starts its executable with (captured from the SDK):
// every flag is taken, those nib acts on set options, the others are named for the warning.
TEST(CliTest, TheClaudeAgentSdksCommandLinesAreTaken) {
  const auto outcome =
      parse({"--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
             "--max-turns=3", "--max-budget-usd=1.5", "--model=claude-sonnet-4-5",
             "--allowedTools=Read,Bash(ls:*)", "--disallowedTools=WebFetch,Bash",
             "--setting-sources=", "--permission-mode=acceptEdits",
             "--fallback-model=claude-haiku-4-5", "--include-partial-messages", "--add-dir=/var",
             "--add-dir=/opt", "--permission-prompt-tool=stdio", "--thinking=adaptive"});
  ASSERT_TRUE(outcome.options) << outcome.message;
  const CliOptions& options = *outcome.options;
  EXPECT_TRUE(options.input_stream_json);
  EXPECT_EQ(options.output_format, OutputFormat::kStreamJson);
  EXPECT_EQ(options.max_turns, 3);
  EXPECT_EQ(options.max_budget_usd, 1.5);
  EXPECT_EQ(options.model, "claude-sonnet-4-5");
  EXPECT_EQ(options.permission_mode, "acceptEdits");
  EXPECT_EQ(options.permission_prompt_tool, "stdio");
  EXPECT_EQ(options.disallowed_tools, (std::vector<std::string>{"WebFetch", "Bash"}));
  EXPECT_FALSE(options.thinking);  // adaptive: the model's default
  std::vector<std::string> unhonoured = options.unhonoured_flags;
  std::sort(unhonoured.begin(), unhonoured.end());
  EXPECT_EQ(unhonoured,
            (std::vector<std::string>{"--add-dir", "--allowedTools", "--fallback-model",
                                      "--include-partial-messages", "--setting-sources"}));
  // "--flag=" is the flag with an empty value, not the flag taking the next argument.
  EXPECT_TRUE(parse({"--setting-sources=", "--version"}).options->version);
  EXPECT_EQ(parse({"--thinking=disabled"}).options->thinking, "off");
  EXPECT_FALSE(parse({"--input-format", "xml"}).options);
}

}  // namespace
}  // namespace nib::app
