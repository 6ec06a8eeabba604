// End-to-end: `nib acp` driven by the official TypeScript library's client
// (tests/app/fixtures/acp_client.mjs, @agentclientprotocol/sdk's ClientSideConnection) against the
// mock model: initialize, a session, a prompt with text, an image and an embedded file, each
// kind of update, permission requests answered each way (judged on the host: which files exist,
// which rule was saved), a cancel while a command runs, a saved session loaded and listed; and
// raw lines on its stdin: malformed JSON and unknown methods get errors and nib goes on, stdin
// closed in the middle of a prompt ends its command and nib.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/host_pid.hpp"
#include "support/mcp_packages.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/node_fixture.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

std::string acp_package() {
  return mcp_package_file("@agentclientprotocol/sdk", "package.json");
}

class AcpTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env(std::map<std::string, std::string> more = {}) const {
    more["OPENAI_BASE_URL"] = server_.base_url();
    more["NIB_MODEL"] = "mock-model";
    return more;
  }

  json drive(const std::string& scenario, std::vector<std::string> flags = {},
             std::map<std::string, std::string> more_env = {}) {
    std::vector<std::string> args = {std::filesystem::path(acp_package()).parent_path().string(),
                                     NIB_BINARY, dir_.path().string(), scenario};
    args.insert(args.end(), flags.begin(), flags.end());
    return run_node_fixture(std::string(NIB_SOURCE_DIR) + "/tests/app/fixtures/acp_client.mjs",
                            std::move(args), dir_.path(), env(std::move(more_env)));
  }

  static std::vector<json> of_kind(const json& out, const std::string& kind) {
    std::vector<json> found;
    for (const json& update : out["updates"]) {
      if (update["sessionUpdate"] == kind) found.push_back(update);
    }
    return found;
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(AcpTest, APromptShowsEveryStepAsTheTerminalWould) {
  NIB_SKIP_WITHOUT(acp_package());
  dir_.write("notes.txt", "alpha\n");
  server_.enqueue(MockReply::tool_calls(
      {{"call_read", "read", R"({"path":"notes.txt","offset":1})"},
       {"call_write", "write", R"({"path":"new.txt","content":"fresh\n"})"},
       {"call_plan", "todo_write",
        R"({"items":[{"content":"Read","status":"completed"},{"content":"Write","status":"in_progress"}]})"}}));
  server_.enqueue(MockReply::text("Done."));
  const json out = drive("prompt");
  ASSERT_TRUE(out.is_object());

  EXPECT_EQ(out["init"]["protocolVersion"], 1);
  EXPECT_EQ(out["init"]["agentCapabilities"]["loadSession"], true);
  EXPECT_EQ(out["init"]["agentCapabilities"]["promptCapabilities"]["image"], true);
  EXPECT_FALSE(out["init"]["authMethods"].empty());
  EXPECT_TRUE(out["session"]["sessionId"].is_string());
  EXPECT_EQ(out["session"]["modes"]["currentModeId"], "auto");
  EXPECT_EQ(out["stopReason"], "end_turn");
  EXPECT_EQ(out["exit"], 0);

  // The prompt reached the model whole: text, image, the embedded file.
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  const std::string first = requests[0].body["messages"].dump();
  EXPECT_THAT(first, HasSubstr("look at this"));
  EXPECT_THAT(first, HasSubstr("image_url"));
  EXPECT_THAT(first, HasSubstr("a note"));

  std::map<std::string, json> calls;
  for (const json& call : of_kind(out, "tool_call")) calls[call["toolCallId"]] = call;
  ASSERT_EQ(calls.size(), 3u) << out["updates"].dump();
  EXPECT_EQ(calls["call_read"]["kind"], "read");
  EXPECT_EQ(calls["call_read"]["status"], "pending");
  EXPECT_EQ(calls["call_read"]["locations"][0]["path"], (dir_.path() / "notes.txt").string());
  EXPECT_EQ(calls["call_read"]["locations"][0]["line"], 1);
  EXPECT_THAT(calls["call_read"]["title"].get<std::string>(), HasSubstr("notes.txt"));
  EXPECT_EQ(calls["call_write"]["kind"], "edit");
  EXPECT_EQ(calls["call_plan"]["kind"], "think");

  std::map<std::string, std::vector<std::string>> statuses;
  json write_end;
  for (const json& update : of_kind(out, "tool_call_update")) {
    statuses[update["toolCallId"]].push_back(update["status"]);
    if (update["toolCallId"] == "call_write" && update["status"] == "completed") {
      write_end = update;
    }
  }
  for (const char* id : {"call_read", "call_write", "call_plan"}) {
    EXPECT_EQ(statuses[id], (std::vector<std::string>{"in_progress", "completed"})) << id;
  }
  ASSERT_TRUE(write_end.is_object());
  EXPECT_EQ(write_end["content"][0], json({{"type", "diff"},
                                           {"path", (dir_.path() / "new.txt").string()},
                                           {"oldText", nullptr},
                                           {"newText", "fresh\n"}}));

  const auto plans = of_kind(out, "plan");
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0]["entries"][1],
            json({{"content", "Write"}, {"priority", "medium"}, {"status", "in_progress"}}));
  std::string text;
  for (const json& chunk : of_kind(out, "agent_message_chunk")) text += chunk["content"]["text"];
  EXPECT_EQ(text, "Done.");
  EXPECT_FALSE(of_kind(out, "usage_update").empty());
  // Without the client's file-system capabilities it is never asked for files.
  EXPECT_TRUE(out["fsCalls"].empty());
}

TEST_F(AcpTest, AClientThatOffersItsFilesGivesReadAndEditItsBuffers) {
  NIB_SKIP_WITHOUT(acp_package());
  dir_.write("notes.txt", "alpha\n");
  server_.enqueue(MockReply::tool_calls({{"call_read", "read", R"({"path":"notes.txt"})"}}));
  server_.enqueue(MockReply::tool_calls(
      {{"call_edit", "edit",
        R"({"path":"notes.txt","oldText":"editor's buffer","newText":"model's edit"})"}}));
  server_.enqueue(MockReply::text("Done."));
  const json out = drive("prompt-fs");
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["stopReason"], "end_turn");
  const std::string path = (dir_.path() / "notes.txt").string();
  ASSERT_EQ(out["fsCalls"].size(), 3u) << out["fsCalls"].dump();
  EXPECT_EQ(out["fsCalls"][0]["method"], "read");
  EXPECT_EQ(out["fsCalls"][0]["path"], path);
  EXPECT_EQ(out["fsCalls"][1]["method"], "read");  // edit reads the buffer it changes
  EXPECT_EQ(out["fsCalls"][2], json({{"method", "write"},
                                     {"sessionId", out["session"]["sessionId"]},
                                     {"path", path},
                                     {"content", "from the model's edit\n"}}));
  // The model read the buffer, not the file; the file on disk is the editor's to save.
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_THAT(requests[1].body["messages"].back().dump(), HasSubstr("from the editor's buffer"));
  std::ifstream on_disk(dir_.path() / "notes.txt");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(on_disk), {}), "alpha\n");
}

TEST_F(AcpTest, ACommandsOutputReachesTheClientWhileItRuns) {
  NIB_SKIP_WITHOUT(acp_package());
  // The command goes on only once its first line has reached the client (the client opens the
  // fifo then); `timeout` ends it should that never happen.
  server_.enqueue(MockReply::tool_calls(
      {{"c1", "bash",
        R"({"command":"mkfifo gate && echo live-line && timeout 20 cat gate && echo after"})"}}));
  server_.enqueue(MockReply::text("Built."));
  const json out = drive("stream");
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["stopReason"], "end_turn");
  std::vector<std::string> seen;
  for (const json& update : of_kind(out, "tool_call_update")) {
    seen.push_back(update.contains("status")
                       ? update["status"].get<std::string>()
                       : "live: " + update["content"][0]["content"]["text"].get<std::string>());
  }
  ASSERT_GE(seen.size(), 3u) << out["updates"].dump();
  EXPECT_EQ(seen.front(), "in_progress");
  EXPECT_EQ(seen[1], "live: live-line\n");
  EXPECT_EQ(seen.back(), "completed");
  const std::string result = server_.requests().at(1).body["messages"].back().dump();
  EXPECT_THAT(result, HasSubstr("go"));
  EXPECT_THAT(result, HasSubstr("after"));
}

TEST_F(AcpTest, PermissionRequestsAreAnsweredEachWay) {
  NIB_SKIP_WITHOUT(acp_package());
  server_.enqueue(MockReply::tool_calls({{"c1", "bash", R"({"command":"touch one"})"},
                                         {"c2", "bash", R"({"command":"touch two"})"},
                                         {"c3", "bash", R"({"command":"mkdir three"})"},
                                         {"c4", "bash", R"({"command":"mkdir four"})"},
                                         {"c5", "bash", R"({"command":"rm -r three"})"},
                                         {"c6", "bash", R"({"command":"rm -r one"})"}}));
  server_.enqueue(MockReply::text("ok"));
  const json out = drive("permissions", {},
                         {{"ACP_ANSWERS", "allow_once,reject_once,allow_always,reject_always"}});
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["stopReason"], "end_turn");

  // Asked four times: mkdir four was allowed by "always", rm -r one refused by "reject always".
  ASSERT_EQ(out["permissionRequests"].size(), 4u) << out["permissionRequests"].dump();
  const json& first = out["permissionRequests"][0];
  EXPECT_EQ(first["toolCall"]["toolCallId"], "c1");
  EXPECT_EQ(first["toolCall"]["kind"], "execute");
  std::vector<std::string> kinds;
  for (const json& option : first["options"]) kinds.push_back(option["kind"]);
  EXPECT_EQ(kinds, (std::vector<std::string>{"allow_once", "allow_always", "reject_once",
                                             "reject_always"}));

  // Judged on the host.
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "one"));
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "two"));
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "three"));
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "four"));
  std::ifstream saved(dir_.path() / ".nib" / "settings.local.json");
  const json settings = json::parse(saved, nullptr, false);
  EXPECT_EQ(settings["permissions"]["allow"], json::array({"Bash(mkdir:*)"})) << settings.dump();

  std::map<std::string, std::string> ends;
  for (const json& update : of_kind(out, "tool_call_update")) {
    if (update["status"] != "in_progress") ends[update["toolCallId"]] = update["status"];
  }
  EXPECT_EQ(ends, (std::map<std::string, std::string>{{"c1", "completed"},
                                                      {"c2", "failed"},
                                                      {"c3", "completed"},
                                                      {"c4", "completed"},
                                                      {"c5", "failed"},
                                                      {"c6", "failed"}}));
}

TEST_F(AcpTest, APermissionRequestTheClientCancelsIsARefusal) {
  NIB_SKIP_WITHOUT(acp_package());
  server_.enqueue(MockReply::tool_calls({{"c1", "bash", R"({"command":"touch asked"})"}}));
  server_.enqueue(MockReply::text("ok"));
  const json out = drive("permissions");  // no answers: the client cancels the request
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["permissionRequests"].size(), 1u);
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "asked"));
  EXPECT_EQ(out["stopReason"], "end_turn");
}

TEST_F(AcpTest, TheTurnLimitIsItsOwnStopReason) {
  NIB_SKIP_WITHOUT(acp_package());
  dir_.write("notes.txt", "alpha\n");
  server_.enqueue(MockReply::tool_calls({{"c1", "read", R"({"path":"notes.txt"})"}}));
  const json out = drive("prompt", {"--max-turns", "1"});
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["stopReason"], "max_turn_requests");
}

TEST_F(AcpTest, ACancelWhileACommandRunsAnswersCancelledAndEndsIt) {
  NIB_SKIP_WITHOUT(acp_package());
  server_.enqueue(MockReply::tool_calls({{"c1", "bash", R"({"command":"sleep 30; touch late"})"}}));
  const json out = drive("cancel");
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["stopReason"], "cancelled");
  EXPECT_EQ(out["exit"], 0);
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "late"));
  // The call still got its result, and nothing more was asked of the model.
  bool ended = false;
  for (const json& update : of_kind(out, "tool_call_update")) {
    ended = ended || (update["toolCallId"] == "c1" && update["status"] == "failed");
  }
  EXPECT_TRUE(ended) << out["updates"].dump();
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(AcpTest, ALoadedSessionReplaysItsConversationBeforeTheAnswer) {
  NIB_SKIP_WITHOUT(acp_package());
  server_.enqueue(MockReply::text("Remembered."));
  const json out = drive("load");
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["stopReason"], "end_turn");
  EXPECT_EQ(out["loaded"]["modes"]["currentModeId"], "auto");
  ASSERT_EQ(out["replayed"], 2) << out["updates"].dump();
  EXPECT_EQ(out["updates"][0]["sessionUpdate"], "user_message_chunk");
  EXPECT_EQ(out["updates"][0]["content"]["text"], "remember this");
  EXPECT_EQ(out["updates"][1]["sessionUpdate"], "agent_message_chunk");
  EXPECT_EQ(out["updates"][1]["content"]["text"], "Remembered.");
  ASSERT_EQ(out["list"]["sessions"].size(), 1u);
  EXPECT_EQ(out["list"]["sessions"][0]["sessionId"], out["session"]["sessionId"]);
  EXPECT_EQ(out["list"]["sessions"][0]["title"], "remember this");
}

// Raw lines, as a broken client might write them.
class AcpWireTest : public AcpTest {
 protected:
  std::unique_ptr<NibProcess> start() {
    return std::make_unique<NibProcess>(std::vector<std::string>{"acp"}, dir_.path(), env(),
                                        std::filesystem::path(), true);
  }
};

TEST_F(AcpWireTest, MalformedLinesAndUnknownMethodsGetErrorsAndNibGoesOn) {
  auto nib = start();
  ASSERT_TRUE(nib->write_stdin("this is not json\n"));
  ASSERT_TRUE(nib->wait_for_stdout("\"code\":-32700"));
  ASSERT_TRUE(nib->write_stdin(R"({"jsonrpc":"2.0","id":7,"method":"no/such","params":{}})"
                               "\n"));
  ASSERT_TRUE(nib->wait_for_stdout("\"code\":-32601"));
  ASSERT_TRUE(nib->write_stdin(
      R"({"jsonrpc":"2.0","id":8,"method":"session/prompt","params":{"sessionId":"none","prompt":[]}})"
      "\n"));
  ASSERT_TRUE(nib->wait_for_stdout("\"code\":-32002"));
  ASSERT_TRUE(nib->write_stdin(
      R"({"jsonrpc":"2.0","id":9,"method":"session/new","params":{"cwd":5,"mcpServers":[]}})"
      "\n"));
  ASSERT_TRUE(nib->wait_for_stdout("\"id\":9,"));
  EXPECT_THAT(nib->stdout_so_far(), HasSubstr("cwd must be an absolute path"));
  ASSERT_TRUE(nib->write_stdin(
      R"({"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":1}})"
      "\n"));
  ASSERT_TRUE(nib->wait_for_stdout("\"protocolVersion\":1"));
  nib->close_stdin();
  const NibResult result = nib->wait();
  EXPECT_EQ(result.exit_code, 0) << result.err;
  // Every line on stdout is one JSON-RPC message.
  std::istringstream lines(result.out);
  std::string line;
  while (std::getline(lines, line)) {
    const json message = json::parse(line, nullptr, false);
    EXPECT_EQ(message.value("jsonrpc", ""), "2.0") << line;
  }
}

TEST_F(AcpWireTest, ClosingStdinInTheMiddleOfAPromptEndsItsCommandAndNib) {
  server_.enqueue(
      MockReply::tool_calls({{"c1", "bash", R"({"command":"echo $$ > pid.txt; exec sleep 60"})"}}));
  auto nib = start();
  const std::string cwd = json(dir_.path().string()).dump();
  ASSERT_TRUE(nib->write_stdin(
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}})"
      "\n"
      R"({"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":)" +
      cwd +
      R"(,"mcpServers":[]}})"
      "\n"));
  ASSERT_TRUE(nib->wait_for_stdout("\"sessionId\""));
  std::string session_id;
  std::istringstream lines(nib->stdout_so_far());
  for (std::string line; std::getline(lines, line);) {
    const json message = json::parse(line, nullptr, false);
    if (message.value("id", json()) == 1) session_id = message["result"]["sessionId"];
  }
  ASSERT_FALSE(session_id.empty());
  ASSERT_TRUE(nib->write_stdin(
      R"({"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":")" + session_id +
      R"(","prompt":[{"type":"text","text":"go"}]}})"
      "\n"));
  // The command runs: its shell wrote its pid (as the host sees it, the sandbox sharing it).
  const std::filesystem::path pid_file = dir_.path() / "pid.txt";
  ASSERT_TRUE(nib->wait_for_stdout("\"in_progress\""));
  while (!std::filesystem::exists(pid_file) || std::filesystem::file_size(pid_file) == 0) {
    std::this_thread::yield();
  }
  pid_t shown = 0;
  std::ifstream(pid_file) >> shown;
  ASSERT_GT(shown, 1);
  const pid_t host = host_pid_in(dir_.path(), shown);
  ASSERT_GT(host, 1);
  nib->close_stdin();
  const NibResult result = nib->wait();
  EXPECT_EQ(result.exit_code, 0) << result.err;
  // The prompt was answered before nib went, and its command is gone.
  EXPECT_THAT(result.out, HasSubstr("\"stopReason\":\"cancelled\""));
  EXPECT_EQ(server_.requests().size(), 1u);
  EXPECT_NE(::kill(host, 0), 0) << "the command " << host << " outlived nib";
}

}  // namespace
}  // namespace nib::testing
