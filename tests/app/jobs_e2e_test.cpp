// End-to-end: background jobs through the real binary and the mock model: a server started in
// the background, fetched from and killed; the notice of a job's end; and every way nib ends
// (the run's end, SIGINT, SIGTERM, kill -9 and the next start) leaving nothing running.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <csignal>
#include <fstream>
#include <regex>

#include "process/proc_table.hpp"
#include "support/host_pid.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

class JobsTest : public ::testing::Test {
 protected:
  // The command registry of these runs is their own: no other test's nib ends their commands.
  void SetUp() override {
    std::filesystem::create_directory(runtime_dir());
    std::filesystem::permissions(runtime_dir(), std::filesystem::perms::owner_all);
    ASSERT_EQ(::mkfifo((dir_.path() / "sync").c_str(), 0600), 0);
  }
  std::filesystem::path runtime_dir() const { return dir_.path() / "run"; }
  std::filesystem::path registry() const { return runtime_dir() / "nib" / "commands"; }
  std::map<std::string, std::string> env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()},
            {"NIB_MODEL", "mock-model"},
            {"TMPDIR", dir_.path().string()},
            {"XDG_DATA_HOME", (dir_.path() / "data").string()},
            {"XDG_RUNTIME_DIR", runtime_dir().string()}};
  }
  NibResult run(std::vector<std::string> args) { return run_nib(args, dir_.path(), env()); }

  // The content of each tool result the model received, by call id, over every request.
  std::map<std::string, std::string> tool_results() const {
    std::map<std::string, std::string> results;
    for (const auto& request : server_.requests()) {
      for (const json& message : request.body["messages"]) {
        if (message["role"] == "tool") {
          results[message["tool_call_id"]] = message["content"].get<std::string>();
        }
      }
    }
    return results;
  }

  // Pids written to the FIFO "sync" by a command (one line).
  std::vector<pid_t> synced_pids() const {
    std::ifstream in(dir_.path() / "sync");
    std::vector<pid_t> pids;
    // $! inside the sandbox is a pid of its own namespace: the host's is the one to check.
    for (pid_t pid = 0; in >> pid;) pids.push_back(host_pid_in(dir_.path(), pid));
    return pids;
  }

  // Entries of commands in the registry (files ending .cmd).
  std::size_t registered_commands() const {
    std::size_t count = 0;
    if (!std::filesystem::exists(registry())) return 0;
    for (const auto& entry : std::filesystem::directory_iterator(registry())) {
      count += entry.path().extension() == ".cmd" ? 1 : 0;
    }
    return count;
  }

  static bool ended(pid_t pid) {
    const auto info = process::read_process(pid);
    return !info || process::has_exited(*info);
  }

  static MockReply bash(const std::string& id, const std::string& command,
                        bool background = false) {
    json args{{"command", command}};
    if (background) args["run_in_background"] = true;
    return MockReply::tool_calls({{id, "bash", args.dump()}});
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(JobsTest, AServerRunsInTheBackgroundIsFetchedFromReadAndKilled) {
  dir_.write("hello.txt", "hello from the server\n");
  const std::string server =
      "python3 -u -c \"import http.server as h; "
      "s = h.ThreadingHTTPServer(('127.0.0.1', 0), h.SimpleHTTPRequestHandler); "
      "open('port', 'w').write(str(s.server_address[1])); print('serving', flush=True); "
      "s.serve_forever()\"";
  server_.enqueue(bash("call_start", server, /*background=*/true));
  server_.enqueue(MockReply::tool_calls(
      {{"call_ready", "job_output", json{{"id", 1}, {"wait_s", 60}}.dump()}}));
  server_.enqueue(bash("call_fetch", "curl -s http://127.0.0.1:$(cat port)/hello.txt"));
  server_.enqueue(
      MockReply::tool_calls({{"call_log", "job_output", json{{"id", 1}, {"wait_s", 60}}.dump()}}));
  server_.enqueue(MockReply::tool_calls({{"call_kill", "job_kill", json{{"id", 1}}.dump()}}));
  server_.enqueue(MockReply::text("The server answered and is stopped."));
  const NibResult result = run({"-p", "serve, fetch, stop"});
  ASSERT_EQ(result.exit_code, 0) << result.err;

  auto results = tool_results();
  EXPECT_TRUE(contains(results["call_start"], "job 1 started in the background, pid "))
      << results["call_start"];
  std::smatch pid_match;
  ASSERT_TRUE(std::regex_search(results["call_start"], pid_match, std::regex("pid ([0-9]+)")));
  const pid_t server_pid = std::stoi(pid_match[1]);
  EXPECT_TRUE(contains(results["call_ready"], "serving")) << results["call_ready"];
  EXPECT_TRUE(contains(results["call_fetch"], "hello from the server")) << results["call_fetch"];
  EXPECT_TRUE(contains(results["call_log"], "\"GET /hello.txt HTTP/1.1\" 200"))
      << "the server's stderr is in its log: " << results["call_log"];
  EXPECT_TRUE(contains(results["call_kill"], "killed by nib (job_kill)")) << results["call_kill"];
  EXPECT_TRUE(ended(server_pid));
  EXPECT_EQ(registered_commands(), 0u) << "nothing of the run is left running";
  EXPECT_FALSE(contains(result.err, "background jobs still ran")) << result.err;
}

TEST_F(JobsTest, TheModelIsToldAtItsNextTurnWhenAJobHasFinished) {
  server_.enqueue(bash("call_job", "echo quick-output; exit 4", /*background=*/true));
  // Waits until the job's entry has left the registry: by then its notice is posted.
  server_.enqueue(bash("call_wait", "while grep -qs '\"job\":1' " + registry().string() +
                                        "/*.cmd; do sleep 0.01; done; echo waited"));
  server_.enqueue(MockReply::text("It failed with status 4."));
  const NibResult result = run({"-p", "run it in the background"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json last = server_.requests().at(2).body["messages"].back();
  EXPECT_EQ(last["role"], "user") << last.dump();
  const std::string notice = last["content"].dump();
  EXPECT_TRUE(contains(notice,
                       "Background job 1 (`echo quick-output; exit 4`) has finished: "
                       "exited with status 4"))
      << notice;
  EXPECT_TRUE(contains(notice, "quick-output")) << notice;
}

TEST_F(JobsTest, ARunThatEndsWhileAJobRunsSaysSoAndEndsIt) {
  server_.enqueue(bash("call_job",
                       "setsid sleep 987651 & echo $! > sync; echo started; exec sleep 987652",
                       /*background=*/true));
  // Returns once the job has written to "sync" (read below), so the run cannot end before.
  server_.enqueue(
      MockReply::tool_calls({{"call_wait", "job_output", json{{"id", 1}, {"wait_s", 60}}.dump()}}));
  server_.enqueue(MockReply::text("Started."));
  NibProcess nib({"-p", "start it"}, dir_.path(), env());
  const std::vector<pid_t> daemon = synced_pids();
  const NibResult result = nib.wait();
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "the run ended while background jobs still ran")) << result.err;
  EXPECT_TRUE(contains(result.err, "job 1 (`setsid sleep 987651")) << result.err;
  ASSERT_EQ(daemon.size(), 1u);
  EXPECT_TRUE(ended(daemon[0]));
  EXPECT_EQ(registered_commands(), 0u);
}

// A job with a daemon, then a call that blocks until nib is signalled.
void enqueue_job_then_block(MockModelServer& server) {
  server.enqueue(MockReply::tool_calls(
      {{"call_job", "bash",
        json{{"command", "setsid sleep 987653 & echo $! > sync; exec sleep 987654"},
             {"run_in_background", true}}
            .dump()}}));
  server.enqueue(MockReply::tool_calls(
      {{"call_block", "bash", json{{"command", "exec sleep 987655"}}.dump()}}));
}

// Each signal in a test of its own: one whose run is cut short leaves replies queued.
class JobsSignalTest : public JobsTest, public ::testing::WithParamInterface<int> {};

TEST_P(JobsSignalTest, EndsEveryJob) {
  const int signal_number = GetParam();
  enqueue_job_then_block(server_);
  NibProcess nib({"-p", "start it"}, dir_.path(), env());
  const std::vector<pid_t> daemon = synced_pids();
  ASSERT_EQ(daemon.size(), 1u);
  nib.send_signal(signal_number);
  const NibResult result = nib.wait();
  EXPECT_EQ(result.exit_code, 128 + signal_number) << result.err;
  EXPECT_TRUE(ended(daemon[0]));
  EXPECT_EQ(registered_commands(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Signals, JobsSignalTest, ::testing::Values(SIGINT, SIGTERM),
                         [](const auto& info) {
                           return info.param == SIGINT ? "Sigint" : "Sigterm";
                         });

TEST_F(JobsTest, AfterAKillNineTheNextNibEndsTheJobsAndTheContinuedRunIsTold) {
  enqueue_job_then_block(server_);
  pid_t daemon = 0;
  {
    // Outside the sandbox (sandboxed jobs die with nib's pid namespace at once:
    // trust_e2e_test.cpp); so do jobs in yolo mode and under the Landlock fallback.
    NibProcess nib({"-p", "start it", "--no-sandbox"}, dir_.path(), env());
    const std::vector<pid_t> pids = synced_pids();
    ASSERT_EQ(pids.size(), 1u);
    daemon = pids[0];
    // The blocking call's reply is taken: the next run gets only its own.
    ASSERT_TRUE(server_.wait_for_requests(2));
    nib.send_signal(SIGKILL);
    EXPECT_EQ(nib.wait().exit_code, 128 + SIGKILL);
  }
  EXPECT_FALSE(ended(daemon)) << "nothing of nib was left to end it";
  server_.enqueue(MockReply::text("I will start it again."));
  const NibResult result = run({"-c", "-p", "is it still up?"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(ended(daemon));
  const std::string sent = server_.requests().back().body["messages"].dump();
  EXPECT_TRUE(contains(sent,
                       "background job 1 (`setsid sleep 987653 & echo $! > sync; exec "
                       "sleep 987654`) of the previous run was ended"))
      << sent;
}

}  // namespace
}  // namespace nib::testing
