// loop_bench: latency and memory of the real nib binary (NIB_BINARY) in print mode against the
// in-process mock model server, compared with nib's targets:
//   1. process start to first model request (spawn of `nib -p` to the mock receiving it);
//   2. loop overhead per turn over a 40-turn session of cheap `read` calls, excluding model and
//      tool time, with a breakdown of where each turn's gap goes;
//   3. peak RSS of nib over that session (wait4's ru_maxrss);
//   4. the loop overhead per turn of the same session against the mock with Nagle's algorithm
//      on (as Python's http.server and any server that does not set TCP_NODELAY leave it),
//      whose every write after a reply's first waits for nib's ACK of the bytes before: nib
//      should not make it wait, so the target is the same as in 2;
//   5. a long session (--long-turns, 300 by default): nib's CPU per turn near turn 10 and near
//      the last turn, and the whole session's CPU. Work that grows with the history (the whole
//      history serialised again each turn, say) shows as a later turn costing more.
// Prints a report, then one "summary<TAB>metric<TAB>value<TAB>target<TAB>verdict" line per
// figure for bench/run. Runs one nib at a time; not a test (timings depend on the machine and
// its load: on a busy machine, `chrt -f 50 loop_bench` keeps other processes from interfering).
//
// Usage: loop_bench [--nib PATH] [--runs N] [--turns N] [--sessions N] [--long-turns N]
//                   [--verbose]
//   --nib: the binary to measure (default NIB_BINARY, this build's nib)

#include <dirent.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_stats.hpp"
#include "nib_run.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::bench {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
using testing::MockModelServer;
using testing::MockReply;
using testing::Nagle;
using testing::NibProcess;
using testing::TempDir;

// nib's targets.
constexpr double kFirstRequestTargetMs = 10.0;
constexpr double kTurnOverheadTargetMs = 2.0;
constexpr double kPeakRssTargetMiB = 20.0;
// A long session: a late turn costs at most this much more CPU than an early one, and the whole
// session at most this much.
constexpr double kLateTurnCpuRatioTarget = 1.5;
constexpr double kLongSessionCpuTargetS = 0.6;
// A run that has not finished after this long is hung, not slow.
constexpr auto kHangLimit = std::chrono::seconds(60);

// The binary under test: NIB_BINARY unless --nib names another.
std::filesystem::path nib_binary = NIB_BINARY;

// --- 1. process start to first model request ------------------------------------------------

void bench_first_request(int runs) {
  std::vector<double> to_request, to_exit;
  for (int run = -1; run < runs; ++run) {  // run -1 warms the page cache and is not counted
    TempDir dir;
    const FirstRequestTimes times = time_first_request(dir.path(), {}, nib_binary, kHangLimit);
    if (run < 0) continue;
    to_request.push_back(times.to_request_ms);
    to_exit.push_back(times.to_exit_ms);
  }
  const Stats request = stats_of(to_request);
  std::printf("\n1. process start to first model request (%d runs of `nib -p hello`)\n", runs);
  print_stats_row("spawn -> first request at the mock", request);
  print_stats_row("spawn -> exit (one text reply)", stats_of(to_exit));
  print_summary("first request, median", request.median, "ms", kFirstRequestTargetMs);
  print_summary("first request, p90", request.p90, "ms", kFirstRequestTargetMs);
}

// --- 2 and 3. a session of cheap tool calls --------------------------------------------------

// Arrival times of the stream-json lines of one turn that mark its phases.
struct TurnMarks {
  std::optional<Clock::time_point> message_end, tool_running, tool_settled, turn_end;
  long tool_duration_ms = 0;  // duration_ms of tool_end (whole milliseconds)
};

// Splits nib's stdout into stream-json lines and notes, per turn, when the marking lines arrived.
std::vector<TurnMarks> turn_marks(const NibProcess& process, const std::string& out) {
  std::vector<TurnMarks> turns;
  std::size_t begin = 0;
  while (begin < out.size()) {
    std::size_t end = out.find('\n', begin);
    if (end == std::string::npos) end = out.size();
    const json event = json::parse(out.substr(begin, end - begin), nullptr, false);
    const auto arrival = process.stdout_arrival(end < out.size() ? end : end - 1);
    begin = end + 1;
    if (event.is_discarded() || !arrival) continue;
    const std::string type = event.value("type", "");
    if (type == "turn_start") turns.emplace_back();
    if (turns.empty()) continue;
    TurnMarks& turn = turns.back();
    if (type == "message_end") turn.message_end = arrival;
    if (type == "tool_running") turn.tool_running = arrival;
    if (type == "tool_settled") turn.tool_settled = arrival;
    if (type == "tool_end") turn.tool_duration_ms = event.value("duration_ms", 0L);
    if (type == "turn_end") turn.turn_end = arrival;
  }
  return turns;
}

// Per-turn figures of all sessions, in milliseconds.
struct SessionFigures {
  std::vector<double> gap;                 // reply k done -> request k+1 arrived
  std::vector<double> overhead;            // gap minus observed tool time (running -> settled)
  std::vector<double> overhead_tool_ms;    // gap minus duration_ms
  std::vector<double> reply_to_message;    // reply done -> message_end line
  std::vector<double> message_to_running;  // message_end -> tool_running (prepare, validate)
  std::vector<double> tool_observed;       // tool_running -> tool_settled
  std::vector<double> settled_to_end;      // tool_settled -> turn_end
  std::vector<double> end_to_request;      // turn_end -> next request (build, connect, send)
  std::vector<double> session_ms;
  long peak_rss_kb = 0;
};

void run_session(int turns, bool verbose, Nagle nagle, SessionFigures& figures) {
  TempDir dir;
  dir.write("tiny.txt", "one small line\n");
  MockModelServer server(nagle);
  for (int k = 1; k < turns; ++k) {
    server.enqueue(
        MockReply::tool_calls({{"call_" + std::to_string(k), "read", R"({"path":"tiny.txt"})"}}));
  }
  server.enqueue(MockReply::text("done"));

  const auto started = Clock::now();
  NibProcess process({"-p", "read tiny.txt many times", "--output-format", "stream-json"},
                     dir.path(), mock_model_env(server), nib_binary);
  const auto result = finish_successfully(process, "session");
  figures.session_ms.push_back(ms_between(started, Clock::now()));
  figures.peak_rss_kb = std::max(figures.peak_rss_kb, result.peak_rss_kb);

  const auto requests = server.requests();
  const auto marks = turn_marks(process, result.out);
  if (requests.size() != static_cast<std::size_t>(turns) ||
      marks.size() != static_cast<std::size_t>(turns)) {
    throw std::runtime_error("session: expected " + std::to_string(turns) + " requests and turns");
  }
  for (int k = 0; k + 1 < turns; ++k) {
    const TurnMarks& m = marks[static_cast<std::size_t>(k)];
    const auto& done = requests[static_cast<std::size_t>(k)].reply_completed_at;
    const auto next = requests[static_cast<std::size_t>(k) + 1].arrived_at;
    if (!done || !m.message_end || !m.tool_running || !m.tool_settled || !m.turn_end) {
      throw std::runtime_error("session: turn " + std::to_string(k + 1) + " lacks an event");
    }
    const double gap = ms_between(*done, next);
    const double tool = ms_between(*m.tool_running, *m.tool_settled);
    figures.gap.push_back(gap);
    figures.overhead.push_back(gap - tool);
    figures.overhead_tool_ms.push_back(gap - static_cast<double>(m.tool_duration_ms));
    figures.reply_to_message.push_back(ms_between(*done, *m.message_end));
    figures.message_to_running.push_back(ms_between(*m.message_end, *m.tool_running));
    figures.tool_observed.push_back(tool);
    figures.settled_to_end.push_back(ms_between(*m.tool_settled, *m.turn_end));
    figures.end_to_request.push_back(ms_between(*m.turn_end, next));
    if (verbose) {
      std::printf("  turn %2d: gap %7.3f  tool %7.3f (duration_ms %ld)  overhead %7.3f ms\n", k + 1,
                  gap, tool, m.tool_duration_ms, gap - tool);
    }
  }
}

SessionFigures run_sessions(int turns, int sessions, bool verbose, Nagle nagle) {
  SessionFigures figures;
  for (int session = 0; session < sessions; ++session) {
    run_session(turns, verbose, nagle, figures);
  }
  return figures;
}

void print_overhead_summaries(const std::string& label, const Stats& overhead) {
  print_summary(label + ", mean", overhead.mean, "ms", kTurnOverheadTargetMs);
  print_summary(label + ", median", overhead.median, "ms", kTurnOverheadTargetMs);
  print_summary(label + ", p90", overhead.p90, "ms", kTurnOverheadTargetMs);
  print_summary(label + ", max", overhead.max, "ms", kTurnOverheadTargetMs);
}

void bench_session(int turns, int sessions, bool verbose) {
  const SessionFigures figures = run_sessions(turns, sessions, verbose, Nagle::kOff);
  std::printf(
      "\n2. loop overhead per turn (%d sessions of %d turns: %d `read` calls of a tiny "
      "file, then a text reply; %zu turn gaps)\n",
      sessions, turns, turns - 1, figures.gap.size());
  const Stats overhead = stats_of(figures.overhead);
  print_stats_row("gap: reply k done -> request k+1", stats_of(figures.gap));
  print_stats_row("overhead = gap - observed tool time", overhead);
  print_stats_row("gap - duration_ms (integer ms only)", stats_of(figures.overhead_tool_ms));
  std::printf("  where the gap goes (times at which nib's stream-json lines reached the bench):\n");
  print_stats_row("  reply done -> message_end", stats_of(figures.reply_to_message));
  print_stats_row("  message_end -> tool_running", stats_of(figures.message_to_running));
  print_stats_row("  tool_running -> tool_settled (tool)", stats_of(figures.tool_observed));
  print_stats_row("  tool_settled -> turn_end", stats_of(figures.settled_to_end));
  print_stats_row("  turn_end -> next request at the mock", stats_of(figures.end_to_request));
  print_stats_row("whole session, spawn to exit", stats_of(figures.session_ms));
  std::printf(
      "  note: tool_end's duration_ms has 1 ms resolution (a tiny read is 0 ms), so the tool's\n"
      "  time is taken from the arrival of its tool_running and tool_settled lines instead;\n"
      "  that span also holds the worker thread's start and the scheduler's wake-up.\n");

  const double rss_mib = static_cast<double>(figures.peak_rss_kb) / 1024.0;
  std::printf(
      "\n3. peak RSS of nib over a %d-turn session: %.1f MiB (%ld KB, wait4 ru_maxrss, "
      "max of %d sessions)\n",
      turns, rss_mib, figures.peak_rss_kb, sessions);
  print_overhead_summaries("loop overhead per turn", overhead);
  print_summary("peak RSS, " + std::to_string(turns) + "-turn session", rss_mib, "MiB",
                kPeakRssTargetMiB);
}

// The same session against a server with Nagle's algorithm on: each of its small writes after
// the first of a reply waits in its kernel until nib has ACKed the bytes before, and the gap is
// counted from the server's last write.
void bench_session_nagle(int turns, int sessions, bool verbose) {
  const SessionFigures figures = run_sessions(turns, sessions, verbose, Nagle::kOn);
  std::printf(
      "\n4. loop overhead per turn against a server with Nagle's algorithm on (%d sessions of %d "
      "turns; %zu turn gaps)\n",
      sessions, turns, figures.gap.size());
  const Stats overhead = stats_of(figures.overhead);
  print_stats_row("gap: reply k written -> request k+1", stats_of(figures.gap));
  print_stats_row("overhead = gap - observed tool time", overhead);
  print_stats_row("  reply written -> message_end", stats_of(figures.reply_to_message));
  print_stats_row("  turn_end -> next request at the mock", stats_of(figures.end_to_request));
  print_overhead_summaries("Nagle server: overhead per turn", overhead);
}

// --- 5. a long session: CPU per turn --------------------------------------------------------

// The CPU time all of a process's threads have used so far, in milliseconds (each thread's
// schedstat counts nanoseconds; /proc/PID/stat counts clock ticks of 10 ms, too coarse for a
// turn). Threads that have already ended are not counted: nib's per-call worker threads end,
// so the figure is a lower bound, and the session's total comes from wait4 instead.
double live_cpu_ms(pid_t pid) {
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  DIR* dir = ::opendir(tasks.c_str());
  if (dir == nullptr) return 0;
  double total_ns = 0;
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    std::FILE* file = std::fopen((tasks + "/" + entry->d_name + "/schedstat").c_str(), "r");
    if (file == nullptr) continue;
    unsigned long long ns = 0;
    if (std::fscanf(file, "%llu", &ns) == 1) total_ns += static_cast<double>(ns);
    std::fclose(file);
  }
  ::closedir(dir);
  return total_ns / 1e6;
}

// The mean CPU per turn over the turns [first, last) of `at_request`, nib's CPU when each
// request arrived.
double cpu_per_turn(const std::vector<double>& at_request, std::size_t first, std::size_t last) {
  return (at_request[last] - at_request[first]) / static_cast<double>(last - first);
}

void bench_long_session(int turns) {
  TempDir dir;
  dir.write("tiny.txt", "one small line\n");
  MockModelServer server;
  for (int k = 1; k < turns; ++k) {
    server.enqueue(
        MockReply::tool_calls({{"call_" + std::to_string(k), "read", R"({"path":"tiny.txt"})"}}));
  }
  server.enqueue(MockReply::text("done"));
  NibProcess process({"-p", "read tiny.txt many times", "--output-format", "stream-json"},
                     dir.path(), mock_model_env(server), nib_binary);
  // nib's CPU as each request arrives: the turn before it is then done.
  std::vector<double> at_request;
  for (int k = 1; k <= turns; ++k) {
    if (!server.wait_for_requests(static_cast<std::size_t>(k), kHangLimit)) {
      throw std::runtime_error("long session: request " + std::to_string(k) + " never came");
    }
    at_request.push_back(live_cpu_ms(process.pid()));
  }
  const auto result = finish_successfully(process, "long session");
  const auto count = static_cast<std::size_t>(turns);
  const std::size_t window = std::min<std::size_t>(10, count / 4);
  const double early = cpu_per_turn(at_request, 5, 5 + window);
  const double late = cpu_per_turn(at_request, count - 1 - window, count - 1);
  std::printf(
      "\n5. a long session (%d turns: %d `read` calls of a tiny file, then a text reply; the last "
      "request carries %zu bytes)\n",
      turns, turns - 1, server.requests().back().raw_body.size());
  std::printf("  CPU per turn, turns %zu-%zu: %.3f ms\n", std::size_t{6}, 5 + window, early);
  std::printf("  CPU per turn, turns %zu-%zu: %.3f ms\n", count - window, count - 1, late);
  std::printf("  whole session: %.3f s of CPU (wait4: user + system), peak RSS %.1f MiB\n",
              result.cpu_ms / 1e3, static_cast<double>(result.peak_rss_kb) / 1024.0);
  print_summary("long session, late turn CPU / early turn CPU", late / early, "x",
                kLateTurnCpuRatioTarget);
  print_summary("long session, whole CPU", result.cpu_ms / 1e3, "s", kLongSessionCpuTargetS);
}

int parse_count(const char* text, const char* flag) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 1 || value > 10'000) {
    throw std::invalid_argument(std::string(flag) + " wants a count from 1 to 10000");
  }
  return static_cast<int>(value);
}

int run(int argc, char** argv) {
  int runs = 20, turns = 40, sessions = 3, long_turns = 300;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--nib" && has_value) {
      nib_binary = std::filesystem::absolute(argv[++i]);  // nib runs in a temp directory
    } else if (arg == "--runs" && has_value) {
      runs = parse_count(argv[++i], "--runs");
    } else if (arg == "--turns" && has_value) {
      turns = std::max(parse_count(argv[++i], "--turns"), 2);
    } else if (arg == "--long-turns" && has_value) {
      long_turns = std::max(parse_count(argv[++i], "--long-turns"), 40);
    } else if (arg == "--sessions" && has_value) {
      sessions = parse_count(argv[++i], "--sessions");
    } else if (arg == "--verbose") {
      verbose = true;
    } else {
      std::cerr << "usage: loop_bench [--nib PATH] [--runs N] [--turns N] [--sessions N] "
                   "[--long-turns N] [--verbose]\n";
      return 2;
    }
  }
  std::printf("loop_bench: %s\n", nib_binary.c_str());
  bench_first_request(runs);
  bench_session(turns, sessions, verbose);
  bench_session_nagle(turns, sessions, verbose);
  bench_long_session(long_turns);
  return 0;
}

}  // namespace
}  // namespace nib::bench

int main(int argc, char** argv) {
  return nib::bench::bench_main("loop_bench", nib::bench::run, argc, argv);
}
