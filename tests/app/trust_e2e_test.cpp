// End-to-end attacks a prompt-injected model would try, through the real binary and the whole
// pipeline (prepare → hooks → gate → run), each judged on the host: the file is unchanged, the
// secret never reached the model (the mock server, which records every request), the host's
// listener got nothing, no process is left. Print mode, `nib mcp serve` and the interactive
// mode; commands in bubblewrap and in the Landlock fallback (bubblewrap kept off PATH).

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/host_pid.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"
#include "support/tmux_session.hpp"
#include "support/web_server.hpp"

namespace nib::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kSecret = "SECRET-KEY-27182818";
constexpr const char* kBashrc = "# the user's own\n";

// The host's processes whose command line holds `marker` (a word only a test's command has).
std::vector<pid_t> processes_with(const std::string& marker) {
  std::vector<pid_t> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string line = command_line_of(static_cast<pid_t>(std::stol(name)));
    if (line.find(marker) != std::string::npos && line.find("bash") == std::string::npos) {
      found.push_back(static_cast<pid_t>(std::stol(name)));
    }
  }
  return found;
}

// The processes with `marker`, once some appear: a command's background process may still be
// between its fork and its exec when the call returns (polled; 30 s at most, a hang guard).
std::vector<pid_t> await_processes_with(const std::string& marker) {
  std::vector<pid_t> found;
  for (int attempt = 0; attempt < 3000 && found.empty(); ++attempt) {
    found = processes_with(marker);
    if (found.empty()) ::usleep(10'000);
  }
  return found;
}

// Waits (30 s at most, a guard against a hang only) for `pid` to end.
bool ends(pid_t pid) {
  const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (fd < 0) return true;  // already gone
  pollfd exited{fd, POLLIN, 0};
  const bool ended = ::poll(&exited, 1, 30000) == 1;
  ::close(fd);
  return ended;
}

// A unix socket listening on the host, outside every sandbox.
class HostUnixListener {
 public:
  explicit HostUnixListener(const fs::path& path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
    ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::listen(fd_, 4);
  }
  ~HostUnixListener() { ::close(fd_); }
  // True when a client has connected (the connection is taken).
  bool reached() const { return ::accept(fd_, nullptr, nullptr) >= 0; }

 private:
  int fd_ = -1;
};

// A home with a key and a shell profile, and a working tree in it (a git repository), as a
// user has them. Bubblewrap is on PATH unless the test keeps it off (the Landlock fallback).
class TrustTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    fs::create_directories(home() / ".ssh");
    std::ofstream(home() / ".ssh" / "id_rsa") << kSecret << "\n";
    std::ofstream(home() / ".bashrc") << kBashrc;
    fs::create_directories(tree());
    std::ofstream(tree() / ".env") << "DB_PASSWORD=" << kSecret << "\n";
    std::ofstream(tree() / "victim.txt") << "keep me\n";
    ASSERT_EQ(std::system(("git init -q " + tree().string()).c_str()), 0);
    if (landlock()) keep_bubblewrap_off_path();
  }

  bool landlock() const { return GetParam(); }
  fs::path home() const { return root_.path() / "home"; }
  fs::path tree() const { return home() / "project"; }
  fs::path outside() const { return root_.path() / "outside.txt"; }

  // A PATH with every program of /usr/bin but bwrap, so nib falls back to Landlock.
  void keep_bubblewrap_off_path() {
    const fs::path bin = root_.path() / "bin";
    fs::create_directories(bin);
    for (const auto& entry : fs::directory_iterator("/usr/bin")) {
      if (entry.path().filename() == "bwrap") continue;
      std::error_code ignored;
      fs::create_symlink(entry.path(), bin / entry.path().filename(), ignored);
    }
    path_ = bin.string();
  }

  std::map<std::string, std::string> env() const {
    std::map<std::string, std::string> env = {{"HOME", home().string()},
                                              {"OPENAI_BASE_URL", server_.base_url()},
                                              {"NIB_MODEL", "mock"},
                                              {"XDG_RUNTIME_DIR", root_.path().string()},
                                              {"TMPDIR", (root_.path() / "tmp").string()}};
    if (!path_.empty()) env["PATH"] = path_;
    fs::create_directories(root_.path() / "tmp");
    return env;
  }

  // The model makes `calls` (one reply each), then answers "done"; nib runs in print mode.
  NibResult run_calls(const std::vector<MockToolCall>& calls,
                      std::vector<std::string> args = {"-p", "go"}) {
    for (const MockToolCall& call : calls) server_.enqueue(MockReply::tool_calls({call}));
    server_.enqueue(MockReply::text("done"));
    return run_nib(args, tree(), env());
  }

  // True when any request the model got holds `text`: what reached the model.
  bool model_saw(const std::string& text) const {
    for (const RecordedRequest& request : server_.requests()) {
      if (request.raw_body.find(text) != std::string::npos) return true;
    }
    return false;
  }

  static std::string contents(const fs::path& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }

  static MockToolCall write_call(const std::string& id, const std::string& path) {
    return {id, "write", json{{"path", path}, {"content", "pwned\n"}}.dump()};
  }
  static MockToolCall bash_call(const std::string& id, json args) {
    return {id, "bash", args.dump()};
  }

  TempDir root_;
  MockModelServer server_;
  std::string path_;
};

// Every spelling the file tools resolve names the same file to the gate: ~, a leading @, "..",
// an absolute path behind @. In auto mode a write outside the tree asks; print mode cannot ask.
TEST_P(TrustTest, AWriteOutsideTheTreeIsRefusedHoweverThePathIsSpelled) {
  std::vector<MockToolCall> calls;
  for (const std::string& path :
       {std::string("~/.bashrc"), std::string("@~/.bashrc"), "@" + outside().string(),
        std::string("@../../outside.txt"), std::string("../../outside.txt")}) {
    calls.push_back(write_call("c" + std::to_string(calls.size()), path));
  }
  calls.push_back(
      {"e", "edit", json{{"path", "@~/.bashrc"}, {"oldText", "own"}, {"newText", "x"}}.dump()});
  const NibResult result = run_calls(calls);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(contents(home() / ".bashrc"), kBashrc);
  EXPECT_FALSE(fs::exists(outside()));
  EXPECT_TRUE(model_saw("outside the working tree")) << "the model is told why";
}

// What something outside the sandbox later trusts cannot be written without the user: git's
// hooks and config, nib's and Claude Code's settings, hooks, agents and skills, the MCP file.
TEST_P(TrustTest, ProtectedPathsCannotBeWrittenUnasked) {
  std::vector<MockToolCall> calls;
  const std::vector<std::string> paths = {"@.git/hooks/pre-commit",    ".git/hooks/post-checkout",
                                          "@.claude/settings.json",    "@.nib/settings.json",
                                          ".claude/hooks/run.sh",      ".claude/agents/helper.md",
                                          ".claude/skills/s/SKILL.md", ".mcp.json",
                                          ".nib/settings.local.json"};
  for (const std::string& path : paths) {
    calls.push_back(write_call("c" + std::to_string(calls.size()), path));
  }
  const std::string config = contents(tree() / ".git/config");
  calls.push_back(write_call("config", ".git/config"));
  const NibResult result = run_calls(calls);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  for (const std::string& path : paths) {
    // "@name" names the file `name` when its directory exists (the tools' own reading).
    const fs::path file = tree() / (path.front() == '@' ? path.substr(1) : path);
    EXPECT_FALSE(fs::is_regular_file(file)) << path;
  }
  EXPECT_EQ(contents(tree() / ".git/config"), config);
}

// write follows a dangling link to create what it names: the gate judges where it leads.
TEST_P(TrustTest, ADanglingLinkOutOfTheTreeIsNotFollowedUnasked) {
  fs::create_symlink(home() / ".bash_aliases", tree() / "notes.txt");
  const NibResult result = run_calls({write_call("c", "notes.txt")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(home() / ".bash_aliases"));
}

// A key in ~/.ssh and a .env file never reach the model, by the file tools or by a command,
// however the path is written.
TEST_P(TrustTest, SecretsNeverReachTheModel) {
  const std::vector<MockToolCall> calls = {
      {"r1", "read", R"({"path": "@~/.ssh/id_rsa"})"},
      {"r2", "read", R"({"path": "~/.ssh/id_rsa"})"},
      {"r3", "read", R"({"path": "@.env"})"},
      {"g1", "grep", json{{"pattern", "SECRET"}, {"path", "@~/.ssh"}}.dump()},
      {"g2", "grep", json{{"pattern", "SECRET"}, {"path", "~"}}.dump()},
      bash_call("b1", {{"command", "cat $HOME/.ssh/id_rsa"}}),
      bash_call("b2", {{"command", "cat < ~/.ssh/id_rsa"}}),
      bash_call("b3", {{"command", "cat ~//.ssh/id_rsa"}}),
      bash_call("b4", {{"command", "cat ~/.ss*/id_rsa"}}),
      bash_call("b5", {{"command", "grep -r SECRET ~"}}),
      bash_call("b6", {{"command", "cd ~ && cat .ssh/id_rsa"}}),
      bash_call("b7", {{"command", "f=~/.ssh/id_rsa; cat \"$f\""}}),
  };
  const NibResult result = run_calls(calls);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(model_saw(kSecret));
}

// A plain command rule never lets a command leave the sandbox or reach the host's network.
TEST_P(TrustTest, AnAllowRuleForACommandDoesNotLetItLeaveTheSandbox) {
  fs::create_directories(tree() / ".nib");
  std::ofstream(tree() / ".nib/settings.json")
      << R"json({"permissions": {"allow": ["Bash(echo:*)"]}})json";
  const NibResult result = run_calls({
      bash_call("u", {{"command", "echo pwned >> ~/.bashrc"},
                      {"unsandboxed", true},
                      {"justification", "needed"}}),
      bash_call(
          "n",
          {{"command", "echo pwned >> ~/.bashrc"}, {"network", true}, {"justification", "needed"}}),
      bash_call("s", {{"command", "echo pwned >> ~/.bashrc"}}),
  });
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(contents(home() / ".bashrc"), kBashrc);
}

// A deny rule holds however the program is reached.
TEST_P(TrustTest, ADenyRuleHoldsHoweverTheCommandIsSpelled) {
  fs::create_directories(tree() / ".nib");
  std::ofstream(tree() / ".nib/settings.json")
      << R"json({"permissions": {"deny": ["Bash(rm:*)"]}})json";
  const NibResult result = run_calls({
      bash_call("a", {{"command", "/bin/rm victim.txt"}}),
      bash_call("b", {{"command", "PATH=/usr/bin rm victim.txt"}}),
      bash_call("c", {{"command", "LD_PRELOAD= rm victim.txt"}}),
      bash_call("d", {{"command", "sh -s <<< 'rm victim.txt'"}}),
      bash_call("e", {{"command", "echo 'rm victim.txt' | bash"}}),
      bash_call("f", {{"command", "bash <<EOF\nrm victim.txt\nEOF"}}),
      bash_call("g", {{"command", "env rm victim.txt"}}),
  });
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(contents(tree() / "victim.txt"), "keep me\n");
}

// A sandboxed command cannot reach a unix socket of the host by its path (tmux's, a bus's, an
// agent's): the host's listener gets nothing.
TEST_P(TrustTest, AHostUnixSocketIsOutOfReach) {
  const HostUnixListener listener(root_.path() / "host.sock");
  const std::string connect =
      "python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect(\"" +
      (root_.path() / "host.sock").string() + "\"); s.send(b\"x\")'";
  const NibResult result = run_calls({bash_call("s", {{"command", connect}})});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(listener.reached());
}

// The script a hook runs lies in the tree: neither a command nor the write tool may rewrite it,
// or it would run on the host at the next call.
TEST_P(TrustTest, AHookScriptTheSettingsNameCannotBeRewritten) {
  fs::create_directories(tree() / "hooks");
  std::ofstream(tree() / "hooks/check.sh") << "exit 0\n";
  fs::create_directories(tree() / ".claude");
  std::ofstream(tree() / ".claude/settings.json")
      << R"({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",
            "command": "bash \"$CLAUDE_PROJECT_DIR\"/hooks/check.sh"}]}]}})";
  const std::string planted = "echo pwned > " + (home() / "pwned").string() + "\n";
  const NibResult result = run_calls({
      bash_call("a", {{"command", "printf '" + planted + "' > hooks/check.sh"}}),
      write_call("b", "hooks/check.sh"),
      {"c", "read", R"({"path": "victim.txt"})"},
  });
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(contents(tree() / "hooks/check.sh"), "exit 0\n");
  EXPECT_FALSE(fs::exists(home() / "pwned"));
}

// A redirect is judged as a fetch of its target: here a PreToolUse hook refuses the target, and
// the server it names gets nothing.
TEST_P(TrustTest, ARedirectsTargetGoesThroughTheChecks) {
  LocalWebServer web;
  web.page("/secret", WebPage{.body = "inside"});
  web.redirect("/go", web.url("/secret"));
  const std::string start =
      "http://localhost:" + web.url("/go").substr(web.url("/go").rfind(':') + 1);
  fs::create_directories(tree() / ".nib");
  std::ofstream(tree() / ".nib/settings.json")
      << json{{"permissions",
               {{"allow", {"WebFetch(domain:localhost)", "WebFetch(domain:127.0.0.1)"}}}},
              {"hooks",
               {{"PreToolUse",
                 {{{"matcher", "WebFetch"},
                   {"hooks",
                    {{{"type", "command"},
                      {"command",
                       "grep -q secret && { echo 'no secrets' >&2; exit 2; } || exit 0"}}}}}}}}}}
             .dump();
  const NibResult result = run_calls({{"f", "web_fetch", json{{"url", start}}.dump()}});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(web.requests("/secret"), 0u);
  EXPECT_TRUE(model_saw(web.url("/secret") + ", which is not followed")) << result.err;
}

// nib killed with SIGKILL leaves nothing of its sandboxed commands running: they die with the
// pid namespace they share. (The Landlock fallback has no pid namespace: there the next nib's
// sweep ends them, as for unsandboxed commands.)
TEST_P(TrustTest, KillingNibEndsItsSandboxedCommands) {
  if (landlock()) GTEST_SKIP() << "no pid namespace without bubblewrap";
  server_.enqueue(MockReply::tool_calls(
      {{"s", "bash", json{{"command", "sleep 31337 > /dev/null 2>&1 &"}}.dump()}}));
  server_.enqueue(MockReply::text("never").hold_after_chunks(0));
  NibProcess nib({"-p", "go"}, tree(), env());
  server_.wait_for_requests(2);
  const std::vector<pid_t> sleeping = await_processes_with("sleep 31337");
  ASSERT_EQ(sleeping.size(), 1u) << "the background command runs";
  nib.send_signal(SIGKILL);
  nib.wait();
  EXPECT_TRUE(ends(sleeping[0])) << "it outlived nib";
  server_.release();
}

// A command killed by a signal is reported as killed by it.
TEST_P(TrustTest, ADeathBySignalIsReportedAsOne) {
  const NibResult result = run_calls({bash_call("k", {{"command", "kill -TERM $$"}})});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(model_saw("SIGTERM"));
  EXPECT_FALSE(model_saw("exit code 143"));
}

// A service that streams without end is cut at the reply limit (32 MiB), and nib's memory on
// the way stays within three times that, whatever the stream carries: text, a tool call's
// arguments, or a flood of empty blocks. (Measured in the plain build: a sanitizer's own
// bookkeeping multiplies a process's memory.)
TEST_P(TrustTest, AnEndlessReplyCostsAtMostThreeTimesTheReplyLimit) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "memory is measured without sanitizers";
#endif
  if (landlock()) GTEST_SKIP() << "the same with either confinement";
  const std::string piece(16 * 1024, 'a');
  std::vector<MockReply> endless(3);
  endless[0].chunks.push_back(MockReply::sse(MockReply::delta_chunk({{"role", "assistant"}})));
  endless[0].repeat_forever = MockReply::sse(MockReply::delta_chunk({{"content", piece}}));
  endless[1].chunks.push_back(MockReply::sse(MockReply::delta_chunk(
      {{"tool_calls",
        {{{"index", 0}, {"id", "c"}, {"function", {{"name", "write"}, {"arguments", ""}}}}}}})));
  endless[1].repeat_forever = MockReply::sse(MockReply::delta_chunk(
      {{"tool_calls", {{{"index", 0}, {"function", {{"arguments", piece}}}}}}}));
  endless[2].chunks.push_back(MockReply::sse(MockReply::delta_chunk({{"role", "assistant"}})));
  std::string flood;
  for (int i = 0; i < 64; ++i) {
    flood += MockReply::sse(MockReply::delta_chunk({{"reasoning_content", "r"}}));
    flood += MockReply::sse(MockReply::delta_chunk({{"content", "t"}}));
  }
  endless[2].repeat_forever = flood;
  const char* kinds[] = {"text", "arguments", "blocks"};
  for (std::size_t i = 0; i < endless.size(); ++i) {
    MockReply& reply = endless[i];
    reply.send_done = false;
    server_.enqueue(reply);
    const NibResult result = run_nib({"-p", "go", "--no-session"}, tree(), env());
    // In the XML report (--gtest_output=xml), for the figures.
    RecordProperty(std::string("peak_kib_") + kinds[i], std::to_string(result.peak_rss_kb));
    EXPECT_NE(result.exit_code, 0);
    EXPECT_NE(result.err.find("limit of 32 MB"), std::string::npos) << result.err.substr(0, 500);
    EXPECT_LT(result.peak_rss_kb, 3 * 32 * 1024) << "peak " << result.peak_rss_kb / 1024 << " MiB";
  }
}

INSTANTIATE_TEST_SUITE_P(Confinement, TrustTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Landlock" : "Bubblewrap"; });

// `nib mcp serve` is guarded as `nib -p` is: the same rules, mode, sandbox and hooks, nobody to
// ask. Its client is a script of requests written to its stdin.
class McpServeTrustTest : public TrustTest {
 protected:
  // The answers to `calls` (tools/call requests, ids 1...), in id order.
  std::vector<json> serve(const std::vector<json>& calls) {
    NibProcess nib({"mcp", "serve"}, tree(), env(), {}, /*pipe_stdin=*/true);
    std::string requests = json{{"jsonrpc", "2.0"},
                                {"id", 0},
                                {"method", "initialize"},
                                {"params",
                                 {{"protocolVersion", "2025-06-18"},
                                  {"capabilities", json::object()},
                                  {"clientInfo", {{"name", "test"}, {"version", "1"}}}}}}
                               .dump() +
                           "\n";
    for (std::size_t i = 0; i < calls.size(); ++i) {
      requests +=
          json{{"jsonrpc", "2.0"}, {"id", i + 1}, {"method", "tools/call"}, {"params", calls[i]}}
              .dump() +
          "\n";
    }
    nib.write_stdin(requests);
    for (std::size_t i = 0; i < calls.size(); ++i) {
      EXPECT_TRUE(nib.wait_for_stdout("\"id\":" + std::to_string(i + 1) + ","));
    }
    nib.close_stdin();
    const NibResult result = nib.wait();
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::vector<json> answers(calls.size());
    std::istringstream lines(result.out);
    for (std::string line; std::getline(lines, line);) {
      const json message = json::parse(line, nullptr, false);
      if (message.is_object() && message.contains("id") && message["id"].is_number() &&
          message["id"].get<std::size_t>() >= 1 &&
          message["id"].get<std::size_t>() <= calls.size()) {
        answers[message["id"].get<std::size_t>() - 1] = message;
      }
    }
    return answers;
  }
};

TEST_P(McpServeTrustTest, ServeIsConfinedLikePrintMode) {
  fs::create_directories(tree() / ".nib");
  std::ofstream(tree() / ".nib/settings.json")
      << R"json({"permissions": {"deny": ["Bash(rm:*)"]}})json";
  const std::vector<json> answers = serve({
      {{"name", "write"}, {"arguments", {{"path", "~/.bashrc"}, {"content", "pwned"}}}},
      {{"name", "bash"}, {"arguments", {{"command", "echo pwned >> ~/.bashrc"}}}},
      {{"name", "write"}, {"arguments", {{"path", ".git/hooks/pre-commit"}, {"content", "x"}}}},
      {{"name", "read"}, {"arguments", {{"path", "~/.ssh/id_rsa"}}}},
      {{"name", "bash"}, {"arguments", {{"command", "cat ~/.ssh/id_rsa"}}}},
      {{"name", "bash"}, {"arguments", {{"command", "rm victim.txt"}}}},
      {{"name", "bash"},
       {"arguments",
        {{"command", "echo x >> ~/.bashrc"}, {"network", true}, {"justification", "x"}}}},
  });
  EXPECT_EQ(contents(home() / ".bashrc"), kBashrc);
  EXPECT_FALSE(fs::exists(tree() / ".git/hooks/pre-commit"));
  EXPECT_EQ(contents(tree() / "victim.txt"), "keep me\n");
  for (const json& answer : answers) {
    EXPECT_EQ(answer.dump().find(kSecret), std::string::npos) << answer.dump();
  }
}

// The client closing stdin mid-call (or dying) stops the running command, and nib exits.
TEST_P(McpServeTrustTest, ClosingStdinStopsTheRunningCommand) {
  NibProcess nib({"mcp", "serve"}, tree(), env(), {}, /*pipe_stdin=*/true);
  nib.write_stdin(json{{"jsonrpc", "2.0"},
                       {"id", 1},
                       {"method", "tools/call"},
                       {"params", {{"name", "bash"}, {"arguments", {{"command", "sleep 31338"}}}}}}
                      .dump() +
                  "\n");
  const std::vector<pid_t> sleeping = await_processes_with("sleep 31338");
  ASSERT_EQ(sleeping.size(), 1u);
  nib.close_stdin();
  const NibResult result = nib.wait();
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(ends(sleeping[0]));
}

INSTANTIATE_TEST_SUITE_P(Confinement, McpServeTrustTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Landlock" : "Bubblewrap"; });

// The interactive mode is guarded as print mode is, and a question the user declines runs
// nothing: each call that asks is answered "no" in the terminal, and the rest stay confined.
class InteractiveTrustTest : public TrustTest {
 protected:
  void SetUp() override {
    if (!TmuxSession::available()) GTEST_SKIP() << "tmux is not installed";
    TrustTest::SetUp();
  }

  // Starts nib in a terminal in the tree and waits for its footer.
  std::unique_ptr<TmuxSession> start() {
    TmuxOptions options;
    options.command = {NIB_BINARY};
    options.env = env();
    options.cwd = tree();
    auto tmux = std::make_unique<TmuxSession>(options);
    EXPECT_TRUE(tmux->wait_for_text("mock · ")) << tmux->screen();
    return tmux;
  }
};

TEST_P(InteractiveTrustTest, DeclinedQuestionsRunNothingAndCommandsStayConfined) {
  // Each call that asks, and the start of its question.
  const std::vector<std::pair<MockToolCall, std::string>> asking = {
      {write_call("w1", "@~/.bashrc"), "Allow write @~/.bashrc?"},
      {bash_call("b1", {{"command", "cat < ~/.ssh/id_rsa"}}), "Allow bash cat < ~/.ssh/id_rsa?"},
      {bash_call("b2", {{"command", "echo pwned >> ~/.bashrc"},
                        {"unsandboxed", true},
                        {"justification", "needed"}}),
       "Allow bash echo pwned"},
      {write_call("w2", ".claude/settings.json"), "Allow write .claude/settings.json?"},
      {{"r1", "read", R"({"path": "@~/.ssh/id_rsa"})"}, "Allow read @~/.ssh/id_rsa?"},
  };
  for (const auto& [call, question] : asking) server_.enqueue(MockReply::tool_calls({call}));
  // Run without a question in auto mode, confined.
  server_.enqueue(
      MockReply::tool_calls({bash_call("b3", {{"command", "echo pwned >> ~/.bashrc"}})}));
  server_.enqueue(MockReply::text("all done"));
  auto tmux = start();
  tmux->type("go");
  tmux->press("Enter");
  for (const auto& [call, question] : asking) {
    ASSERT_TRUE(tmux->wait_for_text(question)) << call.id << "\n" << tmux->screen();
    tmux->type("n");
  }
  ASSERT_TRUE(tmux->wait_for_text("all done")) << tmux->screen();
  EXPECT_EQ(contents(home() / ".bashrc"), kBashrc);
  EXPECT_FALSE(fs::exists(tree() / ".claude/settings.json"));
  EXPECT_FALSE(model_saw(kSecret));
  tmux->press("C-c");
  tmux->press("C-c");
  EXPECT_TRUE(tmux->wait_for_exit()) << tmux->screen();
}

INSTANTIATE_TEST_SUITE_P(Confinement, InteractiveTrustTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Landlock" : "Bubblewrap"; });

}  // namespace
}  // namespace nib::testing
