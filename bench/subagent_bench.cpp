// subagent_bench: the real nib binary (NIB_BINARY) in print mode hands work to N subagents at
// once (one reply with N task calls), each of which makes `turns` model requests (an `ls` call
// in each but the last, then its answer), against the in-process mock model server, which waits
// `latency` before each reply as a real model would. Compares N = 8 with N = 1:
//   1. wall time of the run: 8 subagents should take about as long as one (target: within
//      1.5x), since they wait for the model side by side; measured with a request budget that
//      lets all 8 stream at once (settings.json concurrency.requests = 8) and with the default
//      budget of 4, which halves what can overlap;
//   2. peak RSS growth per extra subagent (target: at most 2 MiB);
//   3. nib's own time per subagent turn: the one-subagent run's wall time less the model's
//      latency on its critical path, per turn (request, stream, tool, relay of events).
// Prints a report, then "summary<TAB>metric<TAB>value<TAB>target<TAB>verdict" lines for
// bench/run. Not a test: timings depend on the machine and its load.
//
// Usage: subagent_bench [--nib PATH] [--turns N] [--latency-ms N] [--runs N]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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
using testing::NibProcess;
using testing::TempDir;

constexpr double kWallRatioTarget = 1.5;
constexpr double kRssPerSubagentTargetMiB = 2.0;
constexpr auto kHangLimit = std::chrono::seconds(120);

struct Options {
  std::filesystem::path nib = NIB_BINARY;
  int turns = 10;
  int latency_ms = 50;
  int runs = 3;
};

struct Run {
  double wall_ms = 0;
  double peak_rss_mib = 0;
};

MockReply with_latency(MockReply reply, int latency_ms) {
  reply.latency = std::chrono::milliseconds(latency_ms);
  return reply;
}

// One `nib -p` whose model asks for `subagents` tasks at once.
Run run_once(const Options& options, int subagents, int request_budget) {
  TempDir dir;
  dir.write("a.txt", "a\n");
  dir.write(".nib/settings.json",
            json{{"concurrency", {{"requests", request_budget}, {"subagents", 8}}}}.dump());
  MockModelServer server;
  std::vector<testing::MockToolCall> tasks;
  for (int i = 0; i < subagents; ++i) {
    const std::string prompt = "part " + std::to_string(i);
    tasks.push_back(
        {"task_" + std::to_string(i), "task",
         json{{"description", "part"}, {"prompt", prompt}, {"agent", "explore"}}.dump()});
    for (int turn = 1; turn < options.turns; ++turn) {
      server.enqueue_for(
          prompt, with_latency(MockReply::tool_calls({{"ls_" + std::to_string(turn), "ls", "{}"}}),
                               options.latency_ms));
    }
    server.enqueue_for(prompt,
                       with_latency(MockReply::text("answer " + prompt), options.latency_ms));
  }
  server.enqueue_for("bench", with_latency(MockReply::tool_calls(tasks), options.latency_ms));
  server.enqueue_for("bench", with_latency(MockReply::text("done"), options.latency_ms));

  const auto started = Clock::now();
  NibProcess process({"-p", "bench"}, dir.path(), mock_model_env(server), options.nib);
  const auto result = finish_successfully(process, "the subagent run");
  const auto ended = Clock::now();
  return {std::chrono::duration<double, std::milli>(ended - started).count(),
          static_cast<double>(result.peak_rss_kb) / 1024.0};
}

// The median wall time and the largest peak RSS of `runs` runs.
Run measure(const Options& options, int subagents, int request_budget) {
  std::vector<double> walls;
  Run out;
  for (int run = 0; run < options.runs; ++run) {
    const Run one = run_once(options, subagents, request_budget);
    walls.push_back(one.wall_ms);
    out.peak_rss_mib = std::max(out.peak_rss_mib, one.peak_rss_mib);
  }
  std::sort(walls.begin(), walls.end());
  out.wall_ms = walls[walls.size() / 2];
  return out;
}

void summary(const std::string& metric, double value, const char* unit, const char* target,
             bool ok) {
  std::printf("summary\t%s\t%.2f %s\t%s\t%s\n", metric.c_str(), value, unit, target,
              ok ? "ok" : "MISSED");
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--nib") {
      options.nib = argv[i + 1];
    } else if (flag == "--turns") {
      options.turns = std::atoi(argv[i + 1]);
    } else if (flag == "--latency-ms") {
      options.latency_ms = std::atoi(argv[i + 1]);
    } else if (flag == "--runs") {
      options.runs = std::atoi(argv[i + 1]);
    } else {
      throw std::runtime_error(
          "usage: subagent_bench [--nib PATH] [--turns N] [--latency-ms N] "
          "[--runs N]");
    }
  }
  return options;
}

}  // namespace
}  // namespace nib::bench

int main(int argc, char** argv) {
  using namespace nib::bench;
  try {
    const Options options = parse(argc, argv);
    const Run one = measure(options, 1, 8);
    const Run eight = measure(options, 8, 8);
    const Run eight_default = measure(options, 8, 4);
    // The one-subagent run's critical path: the parent's two replies and the subagent's turns.
    const double model_ms = static_cast<double>((options.turns + 2) * options.latency_ms);
    const double per_turn_ms = (one.wall_ms - model_ms) / (options.turns + 2);
    const double ratio = eight.wall_ms / one.wall_ms;
    const double rss_per_subagent = (eight.peak_rss_mib - one.peak_rss_mib) / 7.0;
    std::printf("subagents of %d turns, model latency %d ms, median of %d runs\n", options.turns,
                options.latency_ms, options.runs);
    std::printf("  1 subagent:                       %8.1f ms, peak RSS %.1f MiB\n", one.wall_ms,
                one.peak_rss_mib);
    std::printf("  8 subagents (8 requests at once): %8.1f ms, peak RSS %.1f MiB\n", eight.wall_ms,
                eight.peak_rss_mib);
    std::printf("  8 subagents (default budget, 4):  %8.1f ms, peak RSS %.1f MiB\n",
                eight_default.wall_ms, eight_default.peak_rss_mib);
    summary("8 subagents' wall time / one's", ratio, "x", "< 1.5 x", ratio <= kWallRatioTarget);
    summary("8 subagents' wall time / one's, 4 requests at once",
            eight_default.wall_ms / one.wall_ms, "x", "(reported)", true);
    summary("peak RSS per extra subagent", rss_per_subagent, "MiB", "<= 2 MiB",
            rss_per_subagent <= kRssPerSubagentTargetMiB);
    summary("nib's time per subagent turn", per_turn_ms, "ms", "(reported)", true);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "subagent_bench: %s\n", error.what());
    return 1;
  }
  return 0;
}
