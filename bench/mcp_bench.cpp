// mcp_bench: what MCP servers cost nib, against its targets:
//   1. process start to first model request of `nib -p` with no MCP server and with 5
//      configured stdio servers (the tests' fake server, tests/mcp/fixtures/fake_server.py):
//      servers start in the background and never delay the prompt, so both stay under 20 ms.
//      A third row starts 5 idle processes instead (`sleep`), which separates nib's own share
//      from the servers' start-up competing with nib for the CPU;
//   2. nib's own cost per MCP tool call: ServerConnection::call_tool (the JSON-RPC request
//      over the stdio transport, the reply read, matched and mapped for the model) over the
//      server's own round trip, which the bench measures by speaking JSON-RPC to the same
//      server over plain pipes.
// Prints a report, then one "summary<TAB>metric<TAB>value<TAB>target<TAB>verdict" line per
// figure for bench/run. Not a test: timings depend on the machine and its load.
//
// Usage: mcp_bench [--runs N] [--calls N]

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_stats.hpp"
#include "mcp/server_connection.hpp"
#include "nib_run.hpp"
#include "support/temp_dir.hpp"

extern char** environ;

namespace nib::bench {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
using testing::TempDir;

constexpr double kFirstRequestTargetMs = 10.0;
// nib's share of a call should be small beside any real server's work.
constexpr double kCallOverheadTargetUs = 100.0;
constexpr int kServers = 5;
constexpr auto kHangLimit = std::chrono::seconds(60);

const std::string kFakeServer = std::string(NIB_SOURCE_DIR) + "/tests/mcp/fixtures/fake_server.py";

// --- 1. start to first model request, with and without servers ---------------------------------

// `servers` stdio servers, each started as `server` (a command and its arguments).
std::vector<double> first_requests(int runs, int servers, const json& server_command = {}) {
  std::vector<double> measured;
  for (int run = -1; run < runs; ++run) {  // run -1 warms the page cache and is not counted
    TempDir dir;
    json config = json::object();
    for (int i = 0; i < servers; ++i) {
      config["server" + std::to_string(i)] = {{"command", server_command[0]},
                                              {"args", server_command[1]}};
    }
    dir.write("servers.json", json{{"mcpServers", config}}.dump());
    const FirstRequestTimes times =
        time_first_request(dir.path(), {"--mcp-config", "servers.json"}, NIB_BINARY, kHangLimit);
    if (run >= 0) measured.push_back(times.to_request_ms);
  }
  return measured;
}

void bench_first_request(int runs) {
  const Stats none = stats_of(first_requests(runs, 0));
  const Stats five = stats_of(first_requests(runs, kServers, {"python3", {kFakeServer, "normal"}}));
  // Processes that cost nothing to start and never answer: what is left is nib's own share
  // (five spawns, five connection threads), without the servers' start-up competing for CPU.
  const Stats idle = stats_of(first_requests(runs, kServers, {"sleep", {"600"}}));
  std::printf("\n1. process start to first model request (%d runs of `nib -p hello` each)\n", runs);
  print_stats_row("no MCP server", none);
  print_stats_row("5 stdio servers", five);
  print_stats_row("5 idle stdio servers (sleep)", idle);
  print_summary("first request with 5 MCP servers, median", five.median, "ms",
                kFirstRequestTargetMs);
  print_summary("first request with 5 MCP servers, p90", five.p90, "ms", kFirstRequestTargetMs);
}

// --- 2. one tool call: nib's client against the bare round trip ------------------------------

// The fake server on plain pipes: the bench writes requests and reads replies line by line.
class BareServer {
 public:
  BareServer() {
    int to_server[2];
    int from_server[2];
    if (::pipe2(to_server, O_CLOEXEC) != 0 || ::pipe2(from_server, O_CLOEXEC) != 0) {
      throw std::runtime_error("pipe failed");
    }
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(to_server[0], 0);
      ::dup2(from_server[1], 1);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 2);
      ::execlp("python3", "python3", kFakeServer.c_str(), "normal", nullptr);
      ::_exit(127);
    }
    ::close(to_server[0]);
    ::close(from_server[1]);
    in_ = to_server[1];
    out_ = ::fdopen(from_server[0], "r");
    exchange(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":)"
             R"("2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})");
  }
  ~BareServer() {
    ::close(in_);
    std::fclose(out_);
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }

  // Sends one request line and reads the reply line.
  std::string exchange(const std::string& request) {
    const std::string line = request + "\n";
    if (::write(in_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
      throw std::runtime_error("write to the server failed");
    }
    char* reply = nullptr;
    std::size_t capacity = 0;
    if (::getline(&reply, &capacity, out_) < 0) throw std::runtime_error("the server ended");
    std::string text(reply);
    std::free(reply);
    return text;
  }

 private:
  pid_t pid_ = -1;
  int in_ = -1;
  FILE* out_ = nullptr;
};

// Microseconds per call, the median of `calls` calls of `call`.
template <typename Call>
double per_call_us(int calls, Call call) {
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(calls));
  for (int i = 0; i < calls; ++i) {
    const auto start = Clock::now();
    call(i);
    times.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  return stats_of(std::move(times)).median;
}

void bench_call(int calls) {
  BareServer bare;
  const double bare_us = per_call_us(calls, [&](int i) {
    bare.exchange(json{{"jsonrpc", "2.0"},
                       {"id", i + 1},
                       {"method", "tools/call"},
                       {"params", {{"name", "echo"}, {"arguments", {{"text", "ping"}}}}}}
                      .dump());
  });

  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) environment.emplace_back(*entry);
  mcp::ServerConfig config{.name = "fake", .command = "python3", .args = {kFakeServer, "normal"}};
  mcp::ServerConnection connection(
      config, {.startup_timeout = std::chrono::seconds(30),
               .call_timeout = std::chrono::seconds(120),
               .make_transport =
                   mcp::real_transports(std::filesystem::current_path(), std::move(environment))});
  auto started = connection.start({});
  if (!started.ok()) throw std::runtime_error("the server did not start: " + started.error());
  const json arguments = {{"text", "ping"}};
  const double nib_us = per_call_us(calls, [&](int) {
    const core::ToolOutput output = connection.call_tool("echo", arguments, {});
    if (output.is_error) throw std::runtime_error("the call failed: " + output.output);
  });
  connection.shutdown();

  std::printf("\n2. one MCP tool call (echo on the fake server, median of %d)\n", calls);
  std::printf("  %-32s %8.1f us\n", "bare JSON-RPC round trip", bare_us);
  std::printf("  %-32s %8.1f us\n", "through nib's client", nib_us);
  std::printf("  %-32s %8.1f us\n", "nib's share", nib_us - bare_us);
  print_summary("MCP call overhead over the server's round trip", nib_us - bare_us, "us",
                kCallOverheadTargetUs);
}

int parse_count(const char* text, const char* flag) {
  const int value = std::atoi(text);
  if (value <= 0) throw std::runtime_error(std::string(flag) + " takes a positive number");
  return value;
}

int run(int argc, char** argv) {
  int runs = 20;
  int calls = 2000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc) {
      runs = parse_count(argv[++i], "--runs");
    } else if (arg == "--calls" && i + 1 < argc) {
      calls = parse_count(argv[++i], "--calls");
    } else {
      std::cerr << "usage: mcp_bench [--runs N] [--calls N]\n";
      return 2;
    }
  }
  bench_first_request(runs);
  bench_call(calls);
  return 0;
}

}  // namespace
}  // namespace nib::bench

int main(int argc, char** argv) {
  return nib::bench::bench_main("mcp_bench", nib::bench::run, argc, argv);
}
