// End-to-end: the real nib binary in print mode against the mock OpenAI server.

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <csignal>
#include <fstream>
#include <sstream>

#include "support/host_pid.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

class PrintModeTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock-model"}};
  }
  NibResult run(std::vector<std::string> args) { return run_nib(args, dir_.path(), env()); }

  // The tool messages the model received in request number `index`.
  std::vector<json> tool_messages(std::size_t index) {
    std::vector<json> out;
    const auto requests = server_.requests();
    for (const auto& message : requests.at(index).body["messages"]) {
      if (message["role"] == "tool") out.push_back(message);
    }
    return out;
  }

  MockModelServer server_;
  TempDir dir_;
};

// libcurl and the thirty libraries it pulls in are opened when a run needs them (the first
// request), not at every start: --version and --help answer without them. The dynamic loader
// names each library it loads on stderr under LD_DEBUG=libs.
TEST_F(PrintModeTest, OnlyARunLoadsTheNetworkLibraries) {
  std::map<std::string, std::string> loader_env = env();
  loader_env["LD_DEBUG"] = "libs";
  for (const char* flag : {"--version", "--help"}) {
    const auto answer = run_nib({flag}, dir_.path(), loader_env);
    EXPECT_EQ(answer.exit_code, 0) << flag;
    EXPECT_FALSE(contains(answer.err, "libcurl")) << flag << " loaded libcurl";
  }
  server_.enqueue(MockReply::text("ok"));
  const auto result = run_nib({"-p", "hello"}, dir_.path(), loader_env);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "libcurl.so.4"));
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(PrintModeTest, ReadsAFileThenAnswers) {
  dir_.write("README.md", "# Demo\nStart with: make run\n");
  server_.enqueue(MockReply::tool_calls({{"call_1", "read", R"({"path":"README.md"})"}}));
  server_.enqueue(MockReply::text("Run `make run`.", 3));
  const auto result = run({"-p", "How do I start the project?"});

  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "Run `make run`.\n");
  EXPECT_NE(result.err.find("✓ read README.md"), std::string::npos) << result.err;
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  const auto& first = requests[0].body;
  EXPECT_EQ(first["model"], "mock-model");
  EXPECT_EQ(first["stream"], true);
  EXPECT_EQ(first["messages"][0]["role"], "system");
  EXPECT_EQ(first["messages"][1]["content"], "How do I start the project?");
  const auto tools = tool_messages(1);
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(tools[0]["tool_call_id"], "call_1");
  EXPECT_NE(tools[0]["content"].dump().find("Start with: make run"), std::string::npos);
}

TEST_F(PrintModeTest, FiveParallelCallsWithArgumentsSplitMidToken) {
  std::vector<MockToolCall> calls;
  for (int i = 0; i < 5; ++i) {
    const std::string name = "f" + std::to_string(i) + ".txt";
    dir_.write(name, "content of file number " + std::to_string(i) + " ✓\n");
    calls.push_back({"call_" + std::to_string(i), "read", json{{"path", name}}.dump()});
  }
  server_.enqueue(MockReply::tool_calls(calls, /*fragment_size=*/3));
  server_.enqueue(MockReply::text("five files read"));
  const auto result = run({"-p", "read them all"});

  EXPECT_EQ(result.exit_code, 0) << result.err;
  const auto tools = tool_messages(1);
  ASSERT_EQ(tools.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(tools[i]["tool_call_id"], "call_" + std::to_string(i));
    EXPECT_NE(tools[i]["content"].dump().find("content of file number " + std::to_string(i)),
              std::string::npos)
        << tools[i].dump();
  }
}

TEST_F(PrintModeTest, BadArgumentsThenRecovery) {
  dir_.write("a.txt", "alpha\n");
  server_.enqueue(MockReply::tool_calls({{"c1", "read", R"({"path":123})"}}));
  server_.enqueue(MockReply::tool_calls({{"c2", "read", R"({"path":"a.txt"})"}}));
  server_.enqueue(MockReply::text("alpha it is"));
  const auto result = run({"-p", "read a.txt"});

  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "alpha it is\n");
  const auto first = tool_messages(1);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_NE(first[0]["content"].dump().find("invalid arguments for read — /path: expected"),
            std::string::npos)
      << first[0].dump();
  EXPECT_NE(tool_messages(2).back()["content"].dump().find("alpha"), std::string::npos);
}

TEST_F(PrintModeTest, UnknownToolGetsAnErrorListingTheTools) {
  server_.enqueue(MockReply::tool_calls({{"c1", "write_file", R"({"path":"x"})"}}));
  server_.enqueue(MockReply::text("ok"));
  const auto result = run({"-p", "go"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const auto tools = tool_messages(1);
  ASSERT_EQ(tools.size(), 1u);
  const std::string text = tools[0]["content"].dump();
  EXPECT_NE(text.find("unknown tool \\\"write_file\\\""), std::string::npos) << text;
  EXPECT_NE(text.find("read"), std::string::npos);
  EXPECT_NE(text.find("bash"), std::string::npos);
}

TEST_F(PrintModeTest, ReplyCutAtLengthRunsNoToolAndTheModelIsTold) {
  server_.enqueue(
      MockReply::tool_calls({{"c1", "bash", R"({"command":"touch ran"})"}}, 7, "length"));
  server_.enqueue(MockReply::text("understood"));
  const auto result = run({"-p", "go"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "ran"));
  const auto tools = tool_messages(1);
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_NE(tools[0]["content"].dump().find("output-token limit"), std::string::npos);
}

TEST_F(PrintModeTest, Http500IsAClearError) {
  server_.enqueue(MockReply::http_error(500, R"({"error":{"message":"the mock fell over"}})"));
  const auto result = run({"-p", "go"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(result.out.empty());
  EXPECT_NE(result.err.find("500"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("the mock fell over"), std::string::npos) << result.err;
}

TEST_F(PrintModeTest, Http429IsAClearError) {
  server_.enqueue(MockReply::http_error(429, R"({"error":{"message":"rate limited"}})",
                                        {{"Retry-After", "1"}}));
  // Retries (a later feature) may answer it; with nothing more queued the run must fail cleanly.
  const auto result = run({"-p", "go"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("429"), std::string::npos) << result.err;
}

TEST_F(PrintModeTest, DisconnectMidStreamIsAnErrorNotAPartialAnswer) {
  server_.enqueue(MockReply::text("this answer never finishes", 5).disconnect_after(2));
  const auto result = run({"-p", "go"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(result.out.empty()) << result.out;
  EXPECT_NE(result.err.find("stream ended"), std::string::npos) << result.err;
}

TEST_F(PrintModeTest, SigintDuringASlowToolAbortsAndLeavesNoProcess) {
  // The command reports its pid through a FIFO: reading it blocks until the command runs.
  ASSERT_EQ(mkfifo((dir_.path() / "sync").c_str(), 0600), 0);
  server_.enqueue(MockReply::tool_calls(
      {{"c1", "bash", json{{"command", "echo $$ > sync; exec sleep 1000"}}.dump()}}));
  NibProcess nib({"-p", "go", "--output-format", "stream-json"}, dir_.path(), env());
  pid_t pid = 0;
  std::ifstream(dir_.path() / "sync") >> pid;
  pid = testing::host_pid_in(dir_.path(), pid);  // the sandbox's $$ is not the host's pid
  ASSERT_GT(pid, 0);
  nib.send_signal(SIGINT);
  const auto result = nib.wait();

  EXPECT_EQ(result.exit_code, 130) << result.err;
  EXPECT_EQ(server_.requests().size(), 1u);  // no further model request after the abort
  const auto last =
      json::parse(result.out.substr(result.out.rfind('\n', result.out.size() - 2) + 1));
  EXPECT_EQ(last["type"], "result");
  EXPECT_EQ(last["stop_reason"], "aborted");
  EXPECT_NE(result.out.find("\"tool_running\""), std::string::npos);
  EXPECT_NE(result.out.find("\"tool_end\""), std::string::npos);
  // The shell (which became the sleep) is gone: absent, or a zombie awaiting its reaper.
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (std::getline(stat, line)) {
    EXPECT_NE(line.find(") Z"), std::string::npos) << line;
  }
}

TEST_F(PrintModeTest, CommandsDoNotSeeTheModelServicesKeys) {
  dir_.write(
      ".nib/models.json",
      json{{"providers",
            {{"local", {{"baseUrl", "http://127.0.0.1:9/v1"}, {"apiKeyEnv", "LOCAL_API_KEY"}}}}}}
          .dump());
  dir_.write(".nib/settings.json",
             R"({"env": {"withhold": ["MY_TOKEN"], "passThrough": ["ANTHROPIC_API_KEY"]}})");
  server_.enqueue(MockReply::tool_calls({{"call_1", "bash", R"({"command":"env"})"}}));
  server_.enqueue(MockReply::text("done"));
  auto environment = env();
  environment["OPENAI_API_KEY"] = "sk-openai-not-for-commands";
  environment["LOCAL_API_KEY"] = "local-not-for-commands";
  environment["MY_TOKEN"] = "token-not-for-commands";
  environment["ANTHROPIC_API_KEY"] = "sk-ant-passed-through";
  const auto result = run_nib({"-p", "show the environment"}, dir_.path(), environment);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(server_.requests().at(0).header("authorization"), "Bearer sk-openai-not-for-commands")
      << "nib itself still uses the key";
  const auto tools = tool_messages(1);
  ASSERT_EQ(tools.size(), 1u);
  const std::string output = tools[0]["content"].dump();
  EXPECT_NE(output.find("NIB=1"), std::string::npos) << output;
  EXPECT_NE(output.find("ANTHROPIC_API_KEY=sk-ant-passed-through"), std::string::npos) << output;
  for (const char* secret :
       {"sk-openai-not-for-commands", "local-not-for-commands", "token-not-for-commands"}) {
    EXPECT_EQ(output.find(secret), std::string::npos) << secret;
  }
}

TEST_F(PrintModeTest, StreamJsonEmitsEveryToolEventAndAResultLine) {
  dir_.write("a.txt", "alpha\n");
  server_.enqueue(MockReply::tool_calls({{"c1", "read", R"({"path":"a.txt"})"}}));
  server_.enqueue(MockReply::text("done"));
  const auto result = run({"-p", "go", "--output-format", "stream-json"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::vector<std::string> types;
  std::istringstream lines(result.out);
  json last;
  for (std::string line; std::getline(lines, line);) {
    last = json::parse(line);
    const std::string type = last["type"];
    if (type.rfind("tool_", 0) == 0 && type != "tool_call_delta" && type != "tool_results") {
      types.push_back(type);
    }
  }
  EXPECT_EQ(types,
            (std::vector<std::string>{"tool_start", "tool_running", "tool_settled", "tool_end"}));
  EXPECT_EQ(last["type"], "result");
  EXPECT_EQ(last["stop_reason"], "done");
  EXPECT_EQ(last["result"], "done");
  EXPECT_EQ(last["usage"]["input_tokens"], 24);
}

TEST_F(PrintModeTest, JsonOutputIsOneObject) {
  server_.enqueue(MockReply::text("hello"));
  const auto result = run({"-p", "hi", "--output-format", "json"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const auto object = json::parse(result.out);
  EXPECT_EQ(object["result"], "hello");
  EXPECT_EQ(object["stop_reason"], "done");
}

TEST_F(PrintModeTest, MaxTurnsStopsWithItsOwnReason) {
  server_.enqueue(MockReply::tool_calls({{"c1", "bash", R"({"command":"touch ran"})"}}));
  const auto result = run({"-p", "go", "--max-turns", "1", "--output-format", "json"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(json::parse(result.out)["stop_reason"], "max_turns");
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "ran"));
}

TEST_F(PrintModeTest, MaxTurnsSettingCapsTheRunAndSaysHowToGoOn) {
  std::filesystem::create_directories(dir_.path() / ".nib");
  std::ofstream(dir_.path() / ".nib" / "settings.json") << R"({"maxTurns": 1})";
  server_.enqueue(MockReply::tool_calls({{"c1", "bash", R"({"command":"touch ran"})"}}));
  const auto result = run({"-p", "go"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("turn limit of 1"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("nib -c"), std::string::npos) << result.err;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "ran"));
}

TEST_F(PrintModeTest, ADeletedWorkingDirectoryIsOneClearLineAndExitTwo) {
  // bash enters the directory, removes it and then becomes nib, whose cwd is now gone.
  const auto gone = dir_.path() / "gone";
  std::filesystem::create_directory(gone);
  NibProcess nib(
      {"-c", "cd \"$1\" && rmdir \"$1\" && exec \"$2\" -p hi", "bash", gone.string(), NIB_BINARY},
      dir_.path(), env(), "/bin/bash");
  const auto result = nib.wait();
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("nib: the working directory is gone"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("terminate"), std::string::npos) << result.err;
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(PrintModeTest, AServiceErrorThatEchoesTheKeyIsPrintedAndSavedRedacted) {
  const std::string key = "sk-test-0123456789abcdef";
  server_.enqueue(MockReply::http_error(
      401, R"({"error":{"message":"Incorrect API key provided: )" + key + R"("}})"));
  auto environment = env();
  environment["OPENAI_API_KEY"] = key;
  environment["XDG_DATA_HOME"] = (dir_.path() / "data").string();
  const auto result = run_nib({"-p", "hi"}, dir_.path(), environment);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err.find(key), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("Incorrect API key provided: [redacted]"), std::string::npos)
      << result.err;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir_.path() / "data")) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    const std::string saved((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(saved.find(key), std::string::npos) << entry.path();
  }
}

TEST_F(PrintModeTest, ToolsFlagLimitsWhatTheModelSees) {
  server_.enqueue(MockReply::text("ok"));
  const auto result = run({"-p", "go", "--tools", "read"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const auto tools = server_.requests().at(0).body["tools"];
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(tools[0]["function"]["name"], "read");
  EXPECT_EQ(run({"-p", "go", "--tools", "nope"}).exit_code, 2);
}

TEST_F(PrintModeTest, AnswersInContentPartsArePrinted) {
  // Mistral's reasoning models: delta.content as a list of thinking and text parts.
  const auto parts = [](const json& list) { return MockReply::delta_chunk({{"content", list}}); };
  server_.enqueue(MockReply::events({
      parts(json::array({{{"type", "thinking"},
                          {"thinking", json::array({{{"type", "text"}, {"text", "Hm."}}})}}})),
      parts(json::array({{{"type", "text"}, {"text", "Four."}}})),
      MockReply::delta_chunk(json::object(), "stop"),
  }));
  const auto result = run({"-p", "2+2?"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "Four.\n");
  EXPECT_EQ(result.err.find("empty reply"), std::string::npos) << result.err;
}

TEST_F(PrintModeTest, AnEmptyReplyIsPointedOut) {
  server_.enqueue(MockReply::events({MockReply::delta_chunk({{"role", "assistant"}}, "stop")}));
  const auto result = run({"-p", "hello"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("nib: the model returned an empty reply"), std::string::npos)
      << result.err;
}

TEST(PrintModeConfigTest, NoProviderConfiguredSaysHowAndExits2) {
  TempDir dir;
  const auto result = run_nib({"-p", "hello"}, dir.path());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(result.out.empty());
  EXPECT_NE(result.err.find("OPENAI_API_KEY"), std::string::npos) << result.err;
  EXPECT_LE(std::count(result.err.begin(), result.err.end(), '\n'), 2);
}

TEST(PrintModeConfigTest, BadFlagIsAUsageError) {
  TempDir dir;
  EXPECT_EQ(run_nib({"--no-such-flag"}, dir.path()).exit_code, 2);
  EXPECT_EQ(run_nib({"-p", "x", "--output-format", "yaml"}, dir.path()).exit_code, 2);
}

}  // namespace
}  // namespace nib::testing
