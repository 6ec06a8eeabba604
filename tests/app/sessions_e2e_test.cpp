// End-to-end: sessions saved as the run goes, continued and resumed, surviving kill -9, and
// compacted when the conversation outgrows the model's window.

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <csignal>
#include <fstream>
#include <sstream>

#include "process/proc_table.hpp"
#include "support/host_pid.hpp"
#include "support/mock_model_server.hpp"
#include "support/mock_responses_replies.hpp"
#include "support/nib_process.hpp"
#include "support/small_window_models.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

class SessionsTest : public ::testing::Test {
 protected:
  // The command registry of these runs is their own: no other test's nib ends their commands.
  void SetUp() override {
    std::filesystem::create_directory(runtime_dir());
    std::filesystem::permissions(runtime_dir(), std::filesystem::perms::owner_all);
  }
  std::filesystem::path runtime_dir() const { return dir_.path() / "run"; }
  std::map<std::string, std::string> env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()},
            {"NIB_MODEL", "mock-model"},
            {"XDG_DATA_HOME", (dir_.path() / "data").string()},
            {"XDG_RUNTIME_DIR", runtime_dir().string()}};
  }
  NibResult run(std::vector<std::string> args) { return run_nib(args, dir_.path(), env()); }

  // Every message the model received in request `index`, as text.
  std::string request_text(std::size_t index) const {
    return server_.requests().at(index).body["messages"].dump();
  }

  // A project provider "small" serving `model` over `api` with a 3,000-token window, compacting
  // early; run with small_window_env() so that the settings choose it.
  void use_small_window_model(const std::string& api, const std::string& model) {
    dir_.write(".nib/models.json", small_window_models(server_.base_url(), api, model));
    dir_.write(
        ".nib/settings.json",
        R"({"provider": "small", "compaction": {"reserveTokens": 500, "keepRecentTokens": 200}})");
  }
  std::map<std::string, std::string> small_window_env() const {
    auto environment = env();
    environment.erase("NIB_MODEL");
    environment.erase("OPENAI_BASE_URL");
    return environment;
  }

  // The session files written so far.
  std::vector<std::filesystem::path> session_files() const {
    std::vector<std::filesystem::path> files;
    const auto root = dir_.path() / "data/nib/sessions";
    if (!std::filesystem::exists(root)) return files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
    }
    return files;
  }

  static std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(SessionsTest, ARunIsSavedAndContinued) {
  server_.enqueue(MockReply::text("The capital is Paris."));
  server_.enqueue(MockReply::text("About 2.1 million."));
  ASSERT_EQ(run({"-p", "Capital of France?"}).exit_code, 0);
  ASSERT_EQ(session_files().size(), 1u);
  const auto result = run({"-c", "-p", "How many people live there?"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "About 2.1 million.\n");
  const std::string second = request_text(1);
  EXPECT_LT(second.find("Capital of France?"), second.find("The capital is Paris."));
  EXPECT_LT(second.find("The capital is Paris."), second.find("How many people live there?"));
  EXPECT_EQ(session_files().size(), 1u) << "continuing appends to the same file";
}

TEST_F(SessionsTest, AContinuedSessionKeepsItsModelUnlessOneIsNamed) {
  server_.enqueue(MockReply::text("first"));
  server_.enqueue(MockReply::text("second"));
  server_.enqueue(MockReply::text("third"));
  std::map<std::string, std::string> environment{
      {"OPENAI_BASE_URL", server_.base_url()}, {"XDG_DATA_HOME", (dir_.path() / "data").string()}};
  ASSERT_EQ(run_nib({"-p", "hi", "--model", "model-a"}, dir_.path(), environment).exit_code, 0);
  ASSERT_EQ(run_nib({"-c", "-p", "again"}, dir_.path(), environment).exit_code, 0);
  ASSERT_EQ(
      run_nib({"-c", "-p", "switch", "--model", "model-b"}, dir_.path(), environment).exit_code, 0);
  const auto requests = server_.requests();
  EXPECT_EQ(requests.at(1).body["model"], "model-a");
  EXPECT_EQ(requests.at(2).body["model"], "model-b");
  EXPECT_TRUE(contains(read_file(session_files().at(0)), R"("type":"model_change")"));
}

TEST_F(SessionsTest, ResumeByIdPrefixAndListSessions) {
  server_.enqueue(MockReply::text("one"));
  server_.enqueue(MockReply::text("two"));
  server_.enqueue(MockReply::text("back to one"));
  ASSERT_EQ(run({"-p", "first session"}).exit_code, 0);
  ASSERT_EQ(run({"-p", "second session"}).exit_code, 0);
  const auto listed = run({"sessions"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_TRUE(contains(listed.out, "first session")) << listed.out;
  EXPECT_TRUE(contains(listed.out, "second session")) << listed.out;
  EXPECT_LT(listed.out.find("second session"), listed.out.find("first session")) << "newest first";
  // The first session's line: its id comes first.
  const std::size_t line_start = listed.out.rfind('\n', listed.out.find("first session")) + 1;
  const std::string prefix = listed.out.substr(line_start, 6);

  const auto result = run({"-r", prefix, "-p", "and again"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::string third = request_text(2);
  EXPECT_TRUE(contains(third, "first session")) << third;
  EXPECT_FALSE(contains(third, "second session")) << third;

  const auto unknown = run({"-r", "zzzz", "-p", "x"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.err, "zzzz")) << unknown.err;
}

TEST_F(SessionsTest, KillDuringABashCallThenContinueGivesTheCallAResult) {
  ASSERT_EQ(mkfifo((dir_.path() / "sync").c_str(), 0600), 0);
  server_.enqueue(MockReply::tool_calls(
      {{"call_9", "bash", json{{"command", "echo $$ > sync; exec sleep 1000"}}.dump()}}));
  pid_t sleeper = 0;
  {
    NibProcess nib({"-p", "start the server"}, dir_.path(), env());
    std::ifstream(dir_.path() / "sync") >> sleeper;
    ASSERT_GT(sleeper, 0);
    nib.send_signal(SIGKILL);
    EXPECT_EQ(nib.wait().exit_code, 128 + SIGKILL);
  }
  kill(sleeper, SIGKILL);  // nib had no chance to: it was killed outright

  server_.enqueue(MockReply::text("I will check whether it is running."));
  const auto result = run({"-c", "-p", "what happened?"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const json messages = server_.requests().at(1).body["messages"];
  bool answered = false;
  for (const json& message : messages) {
    if (message["role"] == "tool" && message["tool_call_id"] == "call_9") {
      answered = true;
      EXPECT_TRUE(contains(message["content"].dump(), "interrupted")) << message.dump();
    }
  }
  EXPECT_TRUE(answered) << messages.dump();
}

// True when the process that had `pid` and `start_time` is no more: gone, a zombie, or its pid
// taken by another process.
bool ended(pid_t pid, std::uint64_t start_time) {
  const auto info = process::read_process(pid);
  return !info || process::has_exited(*info) || info->start_time != start_time;
}

TEST_F(SessionsTest, AfterAKillNineAnyNibEndsTheDeadRunsCommandsAndTheModelIsTold) {
  ASSERT_EQ(mkfifo((dir_.path() / "sync").c_str(), 0600), 0);
  // A grandchild in a session of its own, a child in the shell's group, and the shell waiting,
  // run outside the sandbox (sandboxed commands die with nib's pid namespace at once:
  // trust_e2e_test.cpp); so do commands in yolo mode and under the Landlock fallback.
  server_.enqueue(MockReply::tool_calls(
      {{"call_5", "bash",
        json{{"command", "setsid sleep 987653 & a=$!; sleep 987654 & echo \"$a $!\" > sync; wait"}}
            .dump()}}));
  pid_t daemon = 0;
  pid_t child = 0;
  {
    NibProcess nib({"-p", "start the servers", "--no-sandbox"}, dir_.path(), env());
    std::ifstream(dir_.path() / "sync") >> daemon >> child;
    ASSERT_GT(daemon, 0);
    ASSERT_GT(child, 0);
    nib.send_signal(SIGKILL);
    EXPECT_EQ(nib.wait().exit_code, 128 + SIGKILL);
  }
  const auto daemon_info = process::read_process(daemon);
  const auto child_info = process::read_process(child);
  ASSERT_TRUE(daemon_info && child_info);
  EXPECT_FALSE(process::has_exited(*daemon_info)) << "nothing of nib was left to end it";
  EXPECT_FALSE(process::has_exited(*child_info));

  // Any nib that starts (but for --version and --help, which answer before anything else).
  ASSERT_EQ(run({"--version"}).exit_code, 0);
  EXPECT_FALSE(ended(daemon, daemon_info->start_time)) << "--version should only answer";
  ASSERT_EQ(run({"sessions"}).exit_code, 0);
  EXPECT_TRUE(ended(daemon, daemon_info->start_time));
  EXPECT_TRUE(ended(child, child_info->start_time));

  server_.enqueue(MockReply::text("I will start them again."));
  const auto result = run({"-c", "-p", "are the servers up?"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::string sent = request_text(1);
  EXPECT_TRUE(
      contains(sent, "The previous run of this session ended without stopping its commands"))
      << sent;
  EXPECT_TRUE(contains(sent, "call_5: setsid sleep 987653")) << sent;
  const std::string file = read_file(session_files().at(0));
  EXPECT_TRUE(contains(file, "call_5: setsid sleep 987653")) << "the note is part of the record";

  // Told once: the run after that hears nothing more of it.
  server_.enqueue(MockReply::text("ok"));
  ASSERT_EQ(run({"-c", "-p", "and now?"}).exit_code, 0);
  const auto last = server_.requests().at(2).body["messages"].back().dump();
  EXPECT_FALSE(contains(last, "ended without stopping")) << last;
}

TEST_F(SessionsTest, AKillMidBatchKeepsTheResultsThatHadFinished) {
  ASSERT_EQ(mkfifo((dir_.path() / "sync").c_str(), 0600), 0);
  server_.enqueue(MockReply::tool_calls(
      {{"call_1", "bash", json{{"command", "echo finished-first"}}.dump()},
       {"call_2", "bash", json{{"command", "echo $$ > sync; exec sleep 1000"}}.dump()}}));
  pid_t sleeper = 0;
  {
    NibProcess nib({"-p", "two steps"}, dir_.path(), env());
    std::ifstream(dir_.path() / "sync") >> sleeper;
    ASSERT_GT(sleeper, 0);
    nib.send_signal(SIGKILL);
    nib.wait();
  }
  kill(sleeper, SIGKILL);
  server_.enqueue(MockReply::text("ok"));
  ASSERT_EQ(run({"-c", "-p", "status?"}).exit_code, 0);
  std::map<std::string, std::string> results;
  const json messages = server_.requests().at(1).body["messages"];
  for (const json& message : messages) {
    if (message["role"] == "tool") results[message["tool_call_id"]] = message["content"].dump();
  }
  ASSERT_EQ(results.size(), 2u) << messages.dump();
  EXPECT_TRUE(contains(results["call_1"], "finished-first")) << results["call_1"];
  EXPECT_TRUE(contains(results["call_2"], "interrupted")) << results["call_2"];
}

TEST_F(SessionsTest, SigtermWritesInterruptedResultsBeforeExiting) {
  ASSERT_EQ(mkfifo((dir_.path() / "sync").c_str(), 0600), 0);
  server_.enqueue(MockReply::tool_calls(
      {{"call_t", "bash", json{{"command", "echo $$ > sync; exec sleep 1000"}}.dump()}}));
  NibProcess nib({"-p", "start"}, dir_.path(), env());
  pid_t sleeper = 0;
  std::ifstream(dir_.path() / "sync") >> sleeper;
  ASSERT_GT(sleeper, 0);
  nib.send_signal(SIGTERM);
  EXPECT_EQ(nib.wait().exit_code, 128 + SIGTERM);
  ASSERT_EQ(session_files().size(), 1u);
  const std::string file = read_file(session_files()[0]);
  const std::string last_line = file.substr(file.rfind('\n', file.size() - 2) + 1);
  EXPECT_TRUE(contains(last_line, "call_t")) << file;
  EXPECT_TRUE(contains(last_line, "interrupted: nib exited")) << file;
}

TEST_F(SessionsTest, ASessionInUseIsRefusedNotMixed) {
  ASSERT_EQ(mkfifo((dir_.path() / "sync").c_str(), 0600), 0);
  server_.enqueue(MockReply::text("first"));
  ASSERT_EQ(run({"-p", "one"}).exit_code, 0);
  server_.enqueue(MockReply::tool_calls(
      {{"call_1", "bash", json{{"command", "echo $$ > sync; exec sleep 1000"}}.dump()}}));
  NibProcess holder({"-c", "-p", "two"}, dir_.path(), env());
  pid_t sleeper = 0;
  std::ifstream(dir_.path() / "sync") >> sleeper;  // the first nib is mid-run
  ASSERT_GT(sleeper, 0);
  const std::string before = read_file(session_files().at(0));

  const auto second = run({"-c", "-p", "three"});
  EXPECT_EQ(second.exit_code, 2);
  EXPECT_TRUE(contains(second.err, "in use by another nib process")) << second.err;
  EXPECT_TRUE(contains(second.err, "start a new session")) << second.err;
  EXPECT_EQ(read_file(session_files().at(0)), before) << "the second run wrote nothing";
  EXPECT_EQ(server_.requests().size(), 2u);
  holder.send_signal(SIGTERM);
  holder.wait();
}

TEST_F(SessionsTest, AnUnreadableLineIsSkippedWithAWarningAndTheFileKept) {
  server_.enqueue(MockReply::text("Paris."));
  ASSERT_EQ(run({"-p", "Capital of France?"}).exit_code, 0);
  const auto file = session_files().at(0);
  std::string text = read_file(file);
  const auto second_line = text.find('\n') + 1;
  text.insert(second_line, "{\"type\":\"message\",\"message\":{\"role\":\"robot\"}}\n");
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;

  server_.enqueue(MockReply::text("About 2.1 million."));
  const auto result = run({"-c", "-p", "How many people live there?"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "warning: skipped an unreadable line")) << result.err;
  EXPECT_TRUE(contains(result.err, file.string() + ":2:")) << result.err;
  EXPECT_TRUE(contains(request_text(1), "Paris.")) << request_text(1);
  EXPECT_EQ(read_file(file).substr(0, text.size()), text) << "the old lines are left as they were";
}

TEST_F(SessionsTest, NoSessionWritesNothing) {
  server_.enqueue(MockReply::text("ok"));
  ASSERT_EQ(run({"--no-session", "-p", "hi"}).exit_code, 0);
  EXPECT_TRUE(session_files().empty());
  EXPECT_EQ(run({"-c", "--no-session", "-p", "x"}).exit_code, 2) << "the two contradict";
}

TEST_F(SessionsTest, SessionFileFlagCreatesThenContinuesThatFile) {
  server_.enqueue(MockReply::text("noted"));
  server_.enqueue(MockReply::text("you said blue"));
  const auto file = dir_.path() / "mine.jsonl";
  ASSERT_EQ(run({"--session", file.string(), "-p", "remember blue"}).exit_code, 0);
  ASSERT_EQ(run({"--session", file.string(), "-p", "what did I say?"}).exit_code, 0);
  EXPECT_TRUE(contains(request_text(1), "remember blue"));
  EXPECT_TRUE(session_files().empty()) << "nothing in the default place";
}

// A model with a small window: a large tool result pushes the next request past the window
// minus the reserve, so the older messages are summarised by the model first.
TEST_F(SessionsTest, CompactsWhenTheContextOutgrowsASmallWindow) {
  dir_.write("big.txt", std::string(12000, 'x') + "\n");
  use_small_window_model("openai-chat", "tiny");
  server_.enqueue(MockReply::tool_calls({{"c1", "read", R"({"path":"big.txt"})"}}));
  server_.enqueue(MockReply::text("SUMMARY: the user asked to read big.txt."));
  server_.enqueue(MockReply::text("It is all x."));
  const auto result = run_nib({"-p", "What is in big.txt?"}, dir_.path(), small_window_env());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "It is all x.\n");
  EXPECT_TRUE(contains(result.err, "compacting the conversation")) << result.err;
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_TRUE(contains(requests[1].body["messages"][0]["content"].dump(), "You summarise"));
  const std::string third = requests[2].body["messages"].dump();
  EXPECT_TRUE(contains(third, "SUMMARY: the user asked to read big.txt."));
  // The prompt was summarised, and is carried past the summary as it was written.
  EXPECT_TRUE(contains(third, "<first-request>\\nWhat is in big.txt?\\n</first-request>")) << third;
  EXPECT_TRUE(contains(third, "\"tool_call_id\":\"c1\"")) << "the call and result stay";
  ASSERT_EQ(session_files().size(), 1u);
  const std::string file = read_file(session_files()[0]);
  EXPECT_TRUE(contains(file, R"("type":"compaction")")) << file;
  EXPECT_TRUE(contains(file, "What is in big.txt?")) << "the full history stays in the file";
}

// The same over the Responses protocol with a GPT model's custom apply_patch call: compaction
// keeps the recent call and its output, and they still go back as a custom call and a custom
// output.
TEST_F(SessionsTest, CompactionKeepsACustomToolCallACustomCall) {
  use_small_window_model("openai-responses", "gpt-5.4");
  const std::string patch =
      "*** Begin Patch\n*** Add File: big.txt\n+" + std::string(12000, 'x') + "\n*** End Patch\n";
  // The service counts the call's 12,000 characters among the reply's output tokens.
  server_.enqueue(MockResponsesStream()
                      .custom_tool_call("call_p", "apply_patch", patch, 500)
                      .completed({.prompt_tokens = 40, .completion_tokens = 3100}));
  server_.enqueue(responses_text("SUMMARY: the user asked for big.txt."));
  server_.enqueue(responses_text("Written."));
  const auto result = run_nib({"-p", "Write big.txt"}, dir_.path(), small_window_env());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "compacting the conversation")) << result.err;
  EXPECT_EQ(read_file(dir_.path() / "big.txt"), std::string(12000, 'x') + "\n");
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  const json third = requests[2].body["input"];
  EXPECT_TRUE(contains(third.dump(), "SUMMARY: the user asked for big.txt."));
  bool call_kept = false;
  bool output_kept = false;
  for (const json& item : third) {
    call_kept |= item.value("type", "") == "custom_tool_call" && item["call_id"] == "call_p" &&
                 item["input"] == patch;
    output_kept |=
        item.value("type", "") == "custom_tool_call_output" && item["call_id"] == "call_p";
  }
  EXPECT_TRUE(call_kept) << third.dump(1);
  EXPECT_TRUE(output_kept) << third.dump(1);
}

TEST_F(SessionsTest, ContextOverflowIsCompactedAndRetried) {
  dir_.write("a.txt", "alpha\n");
  server_.enqueue(MockReply::tool_calls({{"c1", "read", R"({"path":"a.txt"})"}}));
  server_.enqueue(MockReply::http_error(
      400, R"({"error":{"message":"This model's maximum context length is 8192 tokens.",
      "code":"context_length_exceeded"}})"));
  server_.enqueue(MockReply::text("SUMMARY: reading a.txt."));
  server_.enqueue(MockReply::text("It says alpha."));
  const auto result = run({"-p", "What does a.txt say?"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "It says alpha.\n");
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_TRUE(contains(requests[3].body["messages"].dump(), "SUMMARY: reading a.txt."));
}

}  // namespace
}  // namespace nib::testing
