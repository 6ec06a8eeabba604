// End-to-end: the real nib binary in print mode, through the mock model, with MCP servers: the
// official reference servers from npm (server-everything over stdio and streamable HTTP,
// server-filesystem) and small misbehaving fixtures (tests/mcp/fixtures/fake_server.py).

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>

#include "support/fake_mcp_server.hpp"
#include "support/mcp_packages.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/spawn.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

const std::string kEverything = "@modelcontextprotocol/server-everything";

class McpE2eTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock-model"}};
  }
  // Lets the tools of `servers` run without asking (auto mode asks before each MCP call, which
  // print mode refuses): permissions.allow "mcp__<server>" in the project's settings.
  void allow_tools_of(const std::vector<std::string>& servers) {
    json allow = json::array();
    for (const std::string& name : servers) allow.push_back("mcp__" + name);
    dir_.write(".nib/settings.json", json{{"permissions", {{"allow", allow}}}}.dump());
  }
  // Writes `servers` as the --mcp-config file, allows their tools and runs nib -p with it.
  NibResult run(const json& servers, std::vector<std::string> extra = {}) {
    dir_.write("servers.json", json{{"mcpServers", servers}}.dump());
    std::vector<std::string> names;
    for (const auto& [name, entry] : servers.items()) names.push_back(name);
    allow_tools_of(names);
    std::vector<std::string> args = {"-p", "use the tools", "--mcp-config", "servers.json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_nib(args, dir_.path(), env());
  }
  // The content of the tool message answering `call_id`, in request `index`.
  std::string tool_content(std::size_t index, const std::string& call_id) {
    const auto requests = server_.requests();  // kept: the loop reads into it
    for (const auto& message : requests.at(index).body["messages"]) {
      if (message["role"] == "tool" && message["tool_call_id"] == call_id) {
        return message["content"].get<std::string>();
      }
    }
    return "(no result for " + call_id + ")";
  }
  // The messages of request `index` as text: the note on servers whose tools are not available
  // is told there (the system prompt stays the same for the services' caches).
  std::string conversation(std::size_t index) {
    return server_.requests().at(index).body["messages"].dump();
  }
  std::vector<std::string> tool_names(std::size_t index) {
    std::vector<std::string> names;
    const auto requests = server_.requests();
    for (const auto& tool : requests.at(index).body["tools"]) {
      names.push_back(tool["function"]["name"]);
    }
    return names;
  }
  static json everything_stdio(const std::string& index) {
    return {{"command", "node"}, {"args", {index, "stdio"}}};
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(McpE2eTest, EverythingOverStdioServesEachKindOfResult) {
  const std::string index = mcp_package_file(kEverything, "dist/index.js");
  NIB_SKIP_WITHOUT(index);
  server_.enqueue(MockReply::tool_calls({
      {"c1", "mcp__everything__echo", R"({"message":"hello mcp"})"},
      {"c2", "mcp__everything__get-tiny-image", "{}"},
      {"c3", "mcp__everything__get-resource-links", R"({"count":2})"},
      {"c4", "mcp__everything__get-resource-reference", R"({"resourceId":1})"},
      {"c5", "mcp__everything__get-structured-content", R"({"location":"Chicago"})"},
      {"c6", "mcp__everything__echo", R"({"message":7})"},
  }));
  server_.enqueue(MockReply::text("done"));
  const NibResult result = run({{"everything", everything_stdio(index)}});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "done\n");
  EXPECT_EQ(tool_content(1, "c1"), "Echo: hello mcp");
  EXPECT_NE(tool_content(1, "c2").find("image"), std::string::npos) << tool_content(1, "c2");
  EXPECT_NE(tool_content(1, "c3").find("[resource link: "), std::string::npos)
      << tool_content(1, "c3");
  EXPECT_NE(tool_content(1, "c4").find("[resource "), std::string::npos) << tool_content(1, "c4");
  EXPECT_NE(tool_content(1, "c5").find("temperature"), std::string::npos) << tool_content(1, "c5");
  // Arguments are checked against the server's schema before the server sees them.
  EXPECT_NE(tool_content(1, "c6").find("/message"), std::string::npos) << tool_content(1, "c6");
  // The image reached the model as an image.
  const std::string body = server_.requests().at(1).body.dump();
  EXPECT_NE(body.find("data:image/png;base64,"), std::string::npos);
}

TEST_F(McpE2eTest, EverythingOverStreamableHttp) {
  const std::string index = mcp_package_file(kEverything, "dist/index.js");
  NIB_SKIP_WITHOUT(index);
  // A free port: bound and released (the server takes it a moment later).
  const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  socklen_t length = sizeof address;
  ::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &length);
  const int port = ntohs(address.sin_port);
  ::close(probe);
  SpawnedProcess http = spawn_with_pipes(
      {"node", index, "streamableHttp"},
      {"PATH=" + std::string(std::getenv("PATH")), "PORT=" + std::to_string(port)});
  // It says on stderr when it listens.
  std::string said;
  char buffer[512];
  while (said.find("listening on port") == std::string::npos) {
    const ssize_t got = ::read(http.err_fd, buffer, sizeof buffer);
    ASSERT_GT(got, 0) << said;
    said.append(buffer, static_cast<std::size_t>(got));
  }
  server_.enqueue(MockReply::tool_calls({{"c1", "mcp__web__echo", R"({"message":"over http"})"},
                                         {"c2", "mcp__web__get-sum", R"({"a":2,"b":3})"}}));
  server_.enqueue(MockReply::text("done"));
  const NibResult result = run(
      {{"web", {{"type", "http"}, {"url", "http://127.0.0.1:" + std::to_string(port) + "/mcp"}}}});
  ::kill(http.pid, SIGKILL);
  ::waitpid(http.pid, nullptr, 0);
  ::close(http.out_fd);
  ::close(http.err_fd);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(tool_content(1, "c1"), "Echo: over http");
  EXPECT_NE(tool_content(1, "c2").find("5"), std::string::npos) << tool_content(1, "c2");
}

TEST_F(McpE2eTest, ASlowCallIsCancelledAtTheCallTimeout) {
  const std::string index = mcp_package_file(kEverything, "dist/index.js");
  NIB_SKIP_WITHOUT(index);
  server_.enqueue(MockReply::tool_calls(
      {{"c1", "mcp__everything__trigger-long-running-operation", R"({"duration":60,"steps":2})"}}));
  server_.enqueue(MockReply::text("gave up"));
  json config = everything_stdio(index);
  config["callTimeoutMs"] = 500;
  const NibResult result = run({{"everything", config}});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(tool_content(1, "c1"),
            "Error: the MCP server everything gave no answer within 500 ms to tools/call (the "
            "server was asked to cancel it). Try a smaller task, or ask the user to raise the "
            "server's callTimeoutMs.");
}

TEST_F(McpE2eTest, ASlowCallIsCancelledByAnInterrupt) {
  const std::string index = mcp_package_file(kEverything, "dist/index.js");
  NIB_SKIP_WITHOUT(index);
  server_.enqueue(MockReply::tool_calls(
      {{"c1", "mcp__everything__trigger-long-running-operation", R"({"duration":60,"steps":2})"}}));
  dir_.write("servers.json",
             json{{"mcpServers", {{"everything", everything_stdio(index)}}}}.dump());
  allow_tools_of({"everything"});
  NibProcess nib({"-p", "go", "--output-format", "stream-json", "--mcp-config", "servers.json"},
                 dir_.path(), env());
  ASSERT_TRUE(nib.wait_for_stdout("\"tool_running\""));
  nib.send_signal(SIGINT);
  const NibResult result = nib.wait();
  EXPECT_EQ(result.exit_code, 130) << result.err;
  EXPECT_NE(result.out.find("interrupted"), std::string::npos) << result.out;
}

TEST_F(McpE2eTest, AServerThatNeverStartsFailsAtItsTimeoutAndIsNamedToTheModel) {
  server_.enqueue(MockReply::tool_calls({{"c1", "mcp__mute__anything", "{}"}}));
  server_.enqueue(MockReply::text("ok"));
  const NibResult result = run({{"mute",
                                 {{"command", "python3"},
                                  {"args", {fake_mcp_server_script(), "silent"}},
                                  {"startupTimeoutMs", 300}}}});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // The call waited for the server, which failed: an unknown tool, and the note says why.
  EXPECT_NE(tool_content(1, "c1").find("unknown tool"), std::string::npos) << tool_content(1, "c1");
  EXPECT_NE(conversation(1).find("- mute (tools mcp__mute__*): failed (no answer within 300 ms "
                                 "to initialize"),
            std::string::npos)
      << conversation(1);
}

TEST_F(McpE2eTest, AServerThatCrashesMidCallIsAnErrorAndIsRestartedOnce) {
  server_.enqueue(MockReply::tool_calls({{"c1", "mcp__fake__crash", "{}"}}));
  server_.enqueue(MockReply::tool_calls({{"c2", "mcp__fake__echo", R"({"text":"back"})"}}));
  server_.enqueue(MockReply::text("ok"));
  const NibResult result = run({{"fake", fake_mcp_server("normal")}});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(tool_content(1, "c1").find("the MCP server fake stopped before it answered: the "
                                       "server exited with status 1"),
            std::string::npos)
      << tool_content(1, "c1");
  EXPECT_NE(tool_content(1, "c1").find("crashing now"), std::string::npos);
  EXPECT_EQ(tool_content(2, "c2"), "echo: back");
}

TEST_F(McpE2eTest, GarbageOnStdoutIsSkipped) {
  server_.enqueue(MockReply::tool_calls({{"c1", "mcp__noisy__echo", R"({"text":"clean"})"}}));
  server_.enqueue(MockReply::text("ok"));
  const NibResult result = run({{"noisy", fake_mcp_server("garbage")}});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(tool_content(1, "c1"), "echo: clean");
  // The tool whose schema cannot be compiled is left out; the others are offered.
  const auto names = tool_names(1);
  EXPECT_NE(std::find(names.begin(), names.end(), "mcp__noisy__echo"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "mcp__noisy__bad_schema"), names.end());
}

TEST_F(McpE2eTest, FilesystemServerReadsAFile) {
  const std::string index =
      mcp_package_file("@modelcontextprotocol/server-filesystem", "dist/index.js");
  NIB_SKIP_WITHOUT(index);
  dir_.write("notes.txt", "remember the milk\n");
  server_.enqueue(
      MockReply::tool_calls({{"c1", "mcp__fs__read_text_file",
                              json{{"path", (dir_.path() / "notes.txt").string()}}.dump()}}));
  server_.enqueue(MockReply::text("ok"));
  const NibResult result =
      run({{"fs", {{"command", "node"}, {"args", {index, dir_.path().string()}}}}});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(tool_content(1, "c1"), "remember the milk\n");
}

TEST_F(McpE2eTest, AProjectServerRunsOnlyOnceApproved) {
  dir_.write(".mcp.json", json{{"mcpServers", {{"repo", fake_mcp_server("normal")}}}}.dump());
  server_.enqueue(MockReply::text("one"));
  const NibResult refused = run_nib({"-p", "hi"}, dir_.path(), env());
  ASSERT_EQ(refused.exit_code, 0) << refused.err;
  EXPECT_NE(refused.err.find("nib: the MCP server repo of " + (dir_.path() / ".mcp.json").string() +
                             " was not started: it is the project's and not approved yet; "
                             "approve it with `nib mcp approve repo`"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(conversation(0).find("- repo (tools mcp__repo__*): configured by the project but "
                                 "not approved"),
            std::string::npos);

  server_.enqueue(MockReply::tool_calls({{"c1", "mcp__repo__echo", R"({"text":"allowed"})"}}));
  server_.enqueue(MockReply::text("two"));
  allow_tools_of({"repo"});
  ASSERT_EQ(run_nib({"-p", "hi", "--mcp-allow", "repo"}, dir_.path(), env()).exit_code, 0);
  EXPECT_EQ(tool_content(2, "c1"), "echo: allowed");

  const NibResult approved = run_nib({"mcp", "approve", "repo"}, dir_.path(), env());
  ASSERT_EQ(approved.exit_code, 0) << approved.err;
  const NibResult listed = run_nib({"mcp", "list"}, dir_.path(), env());
  EXPECT_EQ(listed.out, "repo  ready  4 tools  .mcp.json\n") << listed.err;
  // A changed entry must be approved again.
  dir_.write(".mcp.json", json{{"mcpServers", {{"repo", fake_mcp_server("garbage")}}}}.dump());
  EXPECT_NE(run_nib({"mcp", "list"}, dir_.path(), env()).out.find("repo  not approved"),
            std::string::npos);
}

// A server's tool acts outside the sandbox: without a rule, auto mode's print run refuses the
// call, naming the rule that would allow it, and the server never sees it.
TEST_F(McpE2eTest, AToolCallWithoutARuleIsRefusedInAutoModeNamingTheRule) {
  dir_.write("servers.json", json{{"mcpServers", {{"fake", fake_mcp_server("normal")}}}}.dump());
  server_.enqueue(MockReply::tool_calls({{"c1", "mcp__fake__echo", R"({"text":"x"})"}}));
  server_.enqueue(MockReply::text("done"));
  const NibResult result =
      run_nib({"-p", "go", "--mcp-config", "servers.json"}, dir_.path(), env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string told = tool_content(1, "c1");
  EXPECT_NE(told.find("MCP tools act outside the sandbox"), std::string::npos) << told;
  EXPECT_NE(told.find("mcp__fake__echo"), std::string::npos) << told;
  EXPECT_EQ(told.find("echo: x"), std::string::npos) << told;
}

TEST_F(McpE2eTest, PromptsOfEverythingAreSlashCommandsInPrintMode) {
  const std::string index = mcp_package_file(kEverything, "dist/index.js");
  NIB_SKIP_WITHOUT(index);
  dir_.write("servers.json",
             json{{"mcpServers", {{"everything", everything_stdio(index)}}}}.dump());
  const auto run_prompt = [&](const std::string& prompt) {
    return run_nib({"-p", prompt, "--mcp-config", "servers.json"}, dir_.path(), env());
  };
  server_.enqueue(MockReply::text("simple done"));
  const NibResult simple = run_prompt("/mcp__everything__simple-prompt");
  ASSERT_EQ(simple.exit_code, 0) << simple.err;
  EXPECT_EQ(simple.out, "simple done\n");
  const auto user_content = [&](std::size_t index) {
    const auto requests = server_.requests();
    return requests.at(index).body["messages"].back()["content"];
  };
  EXPECT_EQ(user_content(0), "This is a simple prompt without arguments.");

  server_.enqueue(MockReply::text("weather done"));
  ASSERT_EQ(run_prompt("/mcp__everything__args-prompt \"San Francisco\" CA").exit_code, 0);
  EXPECT_EQ(user_content(1), "What's weather in San Francisco, CA?");

  // An embedded resource reaches the model as its text, after the prompt's own.
  server_.enqueue(MockReply::text("resource done"));
  ASSERT_EQ(run_prompt("/mcp__everything__resource-prompt Text 1").exit_code, 0);
  const std::string resource = user_content(2).dump();
  EXPECT_NE(resource.find("This prompt includes the Text resource with id: 1"), std::string::npos)
      << resource;
  EXPECT_NE(resource.find("[resource "), std::string::npos) << resource;

  const NibResult missing = run_prompt("/mcp__everything__args-prompt");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nib: /mcp__everything__args-prompt needs <city> (Name of the city)"),
            std::string::npos)
      << missing.err;
  const NibResult unknown = run_prompt("/mcp__everything__no-such");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("its prompts: /mcp__everything__simple-prompt"), std::string::npos)
      << unknown.err;
  EXPECT_EQ(server_.requests().size(), 3u);
}

TEST_F(McpE2eTest, AddGetListAndRemoveServers) {
  const NibResult added = run_nib(
      {"mcp", "add", "fake", "-e", "K=v", "--", "python3", fake_mcp_server_script(), "normal"},
      dir_.path(), env());
  ASSERT_EQ(added.exit_code, 0) << added.err;
  const std::string file = (dir_.path() / ".config/nib/mcp.json").string();
  EXPECT_EQ(added.out, "Added the MCP server fake in " + file + "\n");
  ASSERT_EQ(run_nib({"mcp", "add", "web", "--url", "http://127.0.0.1:1/mcp", "--header",
                     "Authorization: Bearer ${TOKEN}"},
                    dir_.path(), env())
                .exit_code,
            0);
  const NibResult listed = run_nib({"mcp", "list"}, dir_.path(), env());
  EXPECT_NE(listed.out.find("fake  ready  4 tools  ~/.config/nib/mcp.json\n"), std::string::npos)
      << listed.out;
  EXPECT_NE(listed.out.find("web  failed  "), std::string::npos) << listed.out;
  const NibResult got = run_nib({"mcp", "get", "fake"}, dir_.path(), env());
  EXPECT_NE(got.out.find("state: ready"), std::string::npos) << got.out;
  EXPECT_NE(got.out.find("  mcp__fake__echo\n"), std::string::npos) << got.out;
  EXPECT_NE(got.out.find("\"K\": \"v\""), std::string::npos) << got.out;
  ASSERT_EQ(run_nib({"mcp", "remove", "fake"}, dir_.path(), env()).exit_code, 0);
  const NibResult after = run_nib({"mcp", "get", "fake"}, dir_.path(), env());
  EXPECT_EQ(after.exit_code, 1);
  EXPECT_EQ(after.err, "nib: no MCP server is named fake (nib mcp list shows them)\n");
  EXPECT_EQ(run_nib({"mcp", "add", "x"}, dir_.path(), env()).exit_code, 2);
}

// Claude Code's habits: its scopes, --transport http with -H after the URL, add-json, the
// command without --; and what nib cannot run is refused before anything is written.
TEST_F(McpE2eTest, ClaudeCodesAddAndAddJsonWriteTheFileOfTheirScope) {
  const NibResult web = run_nib({"mcp", "add", "-s", "user", "--transport", "http", "web",
                                 "http://127.0.0.1:1/mcp", "-H", "Authorization: Bearer ${TOKEN}"},
                                dir_.path(), env());
  ASSERT_EQ(web.exit_code, 0) << web.err;
  const std::filesystem::path file = dir_.path() / ".config/nib/mcp.json";
  EXPECT_EQ(web.out, "Added the MCP server web in " + file.string() + "\n");
  const json fake = fake_mcp_server("normal");
  const NibResult local =
      run_nib({"mcp", "add-json", "-s", "local", "fake", fake.dump()}, dir_.path(), env());
  ASSERT_EQ(local.exit_code, 0) << local.err;
  EXPECT_EQ(local.out, "Added the MCP server fake in " + file.string() + " for " +
                           dir_.path().string() + " only (local scope)\n");
  const json written = json::parse(file_contents(file));
  EXPECT_EQ(written,
            (json{{"mcpServers",
                   {{"web",
                     {{"type", "http"},
                      {"url", "http://127.0.0.1:1/mcp"},
                      {"headers", {{"Authorization", "Bearer ${TOKEN}"}}}}}}},
                  {"projects", {{dir_.path().string(), {{"mcpServers", {{"fake", fake}}}}}}}}))
      << written.dump();

  ASSERT_EQ(run_nib({"mcp", "add", "-s", "project", "repo", "python3", "server.py", "-e", "x"},
                    dir_.path(), env())
                .exit_code,
            0);
  EXPECT_EQ(json::parse(file_contents(dir_.path() / ".mcp.json")),
            (json{{"mcpServers",
                   {{"repo", {{"command", "python3"}, {"args", {"server.py", "-e", "x"}}}}}}}));

  const NibResult sse = run_nib(
      {"mcp", "add", "--transport", "sse", "old", "http://127.0.0.1:1/sse"}, dir_.path(), env());
  EXPECT_EQ(sse.exit_code, 2);
  EXPECT_NE(sse.err.find("the SSE transport of MCP 2024-11-05 is not supported"), std::string::npos)
      << sse.err;
  EXPECT_EQ(json::parse(file_contents(file)), written);

  // A local server is the user's own: it runs without approval, and says where it is kept.
  const NibResult listed = run_nib({"mcp", "list"}, dir_.path(), env());
  EXPECT_NE(listed.out.find("fake  ready  4 tools  ~/.config/nib/mcp.json (local scope)\n"),
            std::string::npos)
      << listed.out << listed.err;
  const NibResult removed = run_nib({"mcp", "remove", "fake"}, dir_.path(), env());
  ASSERT_EQ(removed.exit_code, 0) << removed.err;
  EXPECT_EQ(removed.out, "Removed the MCP server fake from " + file.string() + " for " +
                             dir_.path().string() + " only (local scope)\n");
}

// A Claude Code user's own servers, in ~/.claude.json: its user scope everywhere, its local
// scope in this project only (another project's stays there). The file is Claude Code's: a
// broken one is said, and nib goes on without it.
TEST_F(McpE2eTest, ServersOfClaudeCodesOwnFileAreListedByScope) {
  const json fake = fake_mcp_server("normal");
  dir_.write(".claude.json", json{{"numStartups", 3},
                                  {"mcpServers", {{"claude-user", fake}}},
                                  {"projects",
                                   {{dir_.path().string(),
                                     {{"mcpServers", {{"claude-local", fake}}},
                                      {"history", {{{"display", "an old prompt"}}}}}},
                                    {"/elsewhere", {{"mcpServers", {{"elsewhere", fake}}}}}}}}
                                 .dump());
  const NibResult listed = run_nib({"mcp", "list"}, dir_.path(), env());
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("claude-user  ready  4 tools  ~/.claude.json\n"), std::string::npos)
      << listed.out << listed.err;
  EXPECT_NE(listed.out.find("claude-local  ready  4 tools  ~/.claude.json (local scope)\n"),
            std::string::npos)
      << listed.out;
  EXPECT_EQ(listed.out.find("elsewhere"), std::string::npos) << listed.out;

  dir_.write(".claude.json", R"({"mcpServers": )");
  ASSERT_EQ(run_nib({"mcp", "add", "mine", "--", "python3", fake_mcp_server_script(), "normal"},
                    dir_.path(), env())
                .exit_code,
            0);
  const NibResult broken = run_nib({"mcp", "list"}, dir_.path(), env());
  ASSERT_EQ(broken.exit_code, 0) << broken.err;
  EXPECT_NE(
      broken.err.find("nib: " + (dir_.path() / ".claude.json").string() + ": not valid JSON: "),
      std::string::npos)
      << broken.err;
  EXPECT_NE(broken.err.find("Claude Code's MCP servers and answers in it are left out"),
            std::string::npos)
      << broken.err;
  EXPECT_NE(broken.out.find("mine  ready  4 tools"), std::string::npos) << broken.out;
}

// Claude Code's answers about .mcp.json's servers count where the user wrote them: never in the
// project's committed .claude/settings.json (a cloned repository must not start a program), in
// .claude/settings.local.json once git ignores it (else the repository may have brought it); a
// refusal counts anywhere. HOME is apart from the project, so that ~/.claude/settings.json is
// not the project's.
TEST_F(McpE2eTest, ClaudeCodesAnswersCountFromTheUsersFilesOnly) {
  TempDir home;
  ASSERT_EQ(std::system(("git -C '" + dir_.path().string() + "' init -q").c_str()), 0);
  const json fake = fake_mcp_server("normal");
  dir_.write(".mcp.json",
             json{{"mcpServers", {{"mine", fake}, {"off", fake}, {"theirs", fake}, {"kept", fake}}}}
                 .dump());
  dir_.write(".claude/settings.local.json",
             json{{"enabledMcpjsonServers", {"mine"}}, {"disabledMcpjsonServers", {"off"}}}.dump());
  dir_.write(".claude/settings.json", json{{"enableAllProjectMcpServers", true},
                                           {"enabledMcpjsonServers", {"theirs", "off"}}}
                                          .dump());
  home.write(
      ".claude.json",
      json{{"projects", {{dir_.path().string(), {{"enabledMcpjsonServers", {"kept"}}}}}}}.dump());
  auto environment = env();
  environment["HOME"] = home.path().string();
  const auto list_has = [&](const std::vector<std::string>& lines) {
    const NibResult listed = run_nib({"mcp", "list"}, dir_.path(), environment);
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    for (const std::string& line : lines) {
      EXPECT_NE(listed.out.find(line + "\n"), std::string::npos) << line << "\n"
                                                                 << listed.out << listed.err;
    }
  };
  list_has({"mine  not approved  (nib mcp approve mine)  .mcp.json",
            "kept  ready  4 tools  .mcp.json (approved in ~/.claude.json)",
            "theirs  not approved  (nib mcp approve theirs)  .mcp.json",
            "off  not approved  (nib mcp approve off)  .mcp.json (declined in "
            ".claude/settings.local.json)"});

  dir_.write(".gitignore", ".claude/settings.local.json\n");
  home.write(".claude/settings.json", json{{"enabledMcpjsonServers", {"theirs"}}}.dump());
  list_has({"mine  ready  4 tools  .mcp.json (approved in .claude/settings.local.json)",
            "theirs  ready  4 tools  .mcp.json (approved in ~/.claude/settings.json)"});
}

TEST_F(McpE2eTest, HelpIsHelpAndAnUnknownActionIsAUsageError) {
  ASSERT_EQ(run_nib({"mcp", "add", "fake", "--", "python3", fake_mcp_server_script(), "normal"},
                    dir_.path(), env())
                .exit_code,
            0);
  const std::filesystem::path file = dir_.path() / ".config/nib/mcp.json";
  const std::string before = file_contents(file);
  // --help is not the name of a server to remove.
  const NibResult help = run_nib({"mcp", "remove", "--help"}, dir_.path(), env());
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("Usage: nib mcp remove [OPTIONS] NAME"), std::string::npos) << help.out;
  EXPECT_TRUE(help.err.empty()) << help.err;
  const NibResult unknown = run_nib({"mcp", "frobnicate", "fake"}, dir_.path(), env());
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("nib mcp: no action \"frobnicate\"; one of: list, get, add, add-json, "
                             "remove, approve, serve\nRun 'nib mcp --help' for usage."),
            std::string::npos)
      << unknown.err;
  EXPECT_TRUE(unknown.out.empty()) << unknown.out;
  EXPECT_EQ(file_contents(file), before);
}

}  // namespace
}  // namespace nib::testing
