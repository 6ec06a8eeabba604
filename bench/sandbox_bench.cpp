// sandbox_bench: what the command sandbox (src/sandbox/command_sandbox.hpp) adds to one bash
// call: run_command("true") unconfined, inside bubblewrap (the shared network namespace joined),
// inside bubblewrap with the host's network, and under the Landlock fallback. The difference
// between the first two is the figure the issue targets (<= 10 ms). Commands run in a scratch
// tree with a scratch registry and cache. Google Benchmark; run by bench/run, never part of CI.

#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "process/command_runner.hpp"
#include "process/process_reaper.hpp"
#include "sandbox/command_sandbox.hpp"
#include "util/user_places.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;

struct Scratch {
  fs::path root;
  Scratch() {
    std::string pattern = "/var/tmp/nib-sandbox-bench-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    root = pattern;
    fs::create_directories(root / "runtime");
    fs::create_directories(root / "tree");
    util::UserPlaces places = util::process_places();
    places.runtime_dir = root / "runtime";
    util::set_process_places(places);
    process::become_subreaper();
  }
  ~Scratch() { fs::remove_all(root); }
};

const Scratch& scratch() {
  static const Scratch instance;
  return instance;
}

void run_true(benchmark::State& state, const process::CommandLauncher* launcher,
              process::LaunchMode mode) {
  const auto no_log = [] { return util::Result<process::LogFile>::failure("no logs"); };
  const process::CommandRequest request{.command = "true",
                                        .cwd = scratch().root / "tree",
                                        .stdout_log = no_log,
                                        .stderr_log = no_log,
                                        .launcher = launcher,
                                        .launch_mode = mode};
  for (auto _ : state) {
    const process::CommandResult result = process::run_command(request, {});
    if (result.end != process::CommandEnd::kExited || result.exit_code != 0) {
      state.SkipWithError(("the command failed: " + result.error).c_str());
      break;
    }
  }
}

std::unique_ptr<CommandSandbox> make_sandbox(ProbeOptions probe = {}) {
  auto sandbox =
      std::make_unique<CommandSandbox>(SandboxOptions{.tree = scratch().root / "tree",
                                                      .cache_root = scratch().root / "cache",
                                                      .probe = std::move(probe)});
  return sandbox;
}

void BM_Unconfined(benchmark::State& state) {
  run_true(state, nullptr, {});
}

void BM_Bubblewrap(benchmark::State& state) {
  const auto sandbox = make_sandbox();
  if (sandbox->verdict().confinement != Confinement::kBubblewrap) {
    state.SkipWithError(sandbox->verdict().line.c_str());
    return;
  }
  run_true(state, sandbox.get(), {});
}

void BM_BubblewrapHostNetwork(benchmark::State& state) {
  const auto sandbox = make_sandbox();
  if (sandbox->verdict().confinement != Confinement::kBubblewrap) {
    state.SkipWithError(sandbox->verdict().line.c_str());
    return;
  }
  run_true(state, sandbox.get(), {.network = true});
}

void BM_Landlock(benchmark::State& state) {
  // bubblewrap pointed at a program that fails, as where namespaces are unavailable.
  const auto sandbox = make_sandbox({.bubblewrap = "/bin/false"});
  if (sandbox->verdict().confinement != Confinement::kLandlock) {
    state.SkipWithError(sandbox->verdict().line.c_str());
    return;
  }
  run_true(state, sandbox.get(), {});
}

void BM_Probe(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(probe_sandbox());
}

BENCHMARK(BM_Unconfined)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Bubblewrap)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BubblewrapHostNetwork)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Landlock)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Probe)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace nib::sandbox

BENCHMARK_MAIN();
