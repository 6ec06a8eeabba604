// job_bench: what starting a background job costs (src/tools/job_table.hpp), beside what a
// foreground command costs, both for `true`:
//   - BM_ForegroundCommand: run_command from spawn to result (the bash tool's path);
//   - BM_JobStart: JobTable::start until it returns (what the model waits for when it starts a
//     job: tag, registry entry, log file, spawn on the table's spawn thread, watcher thread);
//   - BM_JobStartToFinished: start until the job is known finished (the watcher reaps the shell
//     and scans /proc once to see that nothing of it runs).
// Registry and logs live in scratch directories. Google Benchmark; run by bench/run, never
// part of CI.

#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "process/command_registry.hpp"
#include "process/command_runner.hpp"
#include "process/job_table.hpp"
#include "process/process_reaper.hpp"
#include "util/user_places.hpp"

namespace nib::tools {
namespace {

namespace fs = std::filesystem;

// Scratch directories for the registry and the logs, removed at the end of the run.
struct Scratch {
  fs::path root;
  Scratch() {
    std::string pattern = "/tmp/nib-job-bench-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    root = pattern;
    util::UserPlaces places = util::process_places();
    places.runtime_dir = root;
    util::set_process_places(places);
    process::become_subreaper();
  }
  ~Scratch() { fs::remove_all(root); }
};

const Scratch& scratch() {
  static const Scratch dirs;
  return dirs;
}

process::CommandRequest true_command() {
  return {.command = "true",
          .cwd = scratch().root,
          .environment = process::non_interactive_environment(),
          .stdout_log = [] { return util::Result<process::LogFile>::failure("no log"); },
          .stderr_log = [] { return util::Result<process::LogFile>::failure("no log"); }};
}

process::JobTableOptions scratch_logs() {
  return {.create_log = [](std::string_view prefix) {
    return process::create_log_in(process::open_private_dir(scratch().root / "logs").value(),
                                  prefix);
  }};
}

void BM_ForegroundCommand(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(process::run_command(true_command(), {}));
}
BENCHMARK(BM_ForegroundCommand)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_JobStart(benchmark::State& state) {
  process::JobTable jobs(scratch_logs());
  for (auto _ : state) {
    auto started = jobs.start(true_command());
    state.PauseTiming();
    if (!started.ok()) state.SkipWithError(started.error().c_str());
    jobs.find(started.value().id)->wait_finished({});
    state.ResumeTiming();
  }
}
BENCHMARK(BM_JobStart)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_JobStartToFinished(benchmark::State& state) {
  process::JobTable jobs(scratch_logs());
  for (auto _ : state) {
    auto started = jobs.start(true_command());
    if (!started.ok()) state.SkipWithError(started.error().c_str());
    jobs.find(started.value().id)->wait_finished({});
  }
}
BENCHMARK(BM_JobStartToFinished)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace nib::tools

BENCHMARK_MAIN();
