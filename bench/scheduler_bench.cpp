// scheduler_bench: the cost ToolScheduler adds to a batch, measured with tools that return at
// once, so every nanosecond is the scheduler's (worker threads, slots, events, ordering):
//   - a batch of 5 concurrency_safe no-op calls (one chunk, run side by side on workers);
//   - a batch of 5 serial no-op calls (five chunks, one after another);
//   - a batch of 1, and a bare std::thread start + join for scale;
//   - prepare_tool_call() alone: tool lookup, JSON parse and schema validation of one call.
// Wall time ("real_time") is what counts: the work happens on worker threads.
// Google Benchmark; run by bench/run, never part of CI.

#include <benchmark/benchmark.h>

#include <string>
#include <thread>
#include <vector>

#include "core/slot_pool.hpp"
#include "core/tool_call.hpp"
#include "core/tool_registry.hpp"
#include "core/tool_scheduler.hpp"

namespace nib::core {
namespace {

// Parameters shaped like the read tool's, so validation does realistic work.
nlohmann::json read_like_schema() {
  return nlohmann::json::parse(R"({
    "type": "object",
    "properties": {
      "path": {"type": "string", "description": "file to read"},
      "offset": {"type": "integer", "minimum": 1},
      "limit": {"type": "integer", "minimum": 1}
    },
    "required": ["path"],
    "additionalProperties": false
  })");
}

ToolPtr noop_tool(const std::string& name, bool concurrency_safe) {
  return make_tool(
      ToolSpec{name, "does nothing", read_like_schema(), concurrency_safe},
      [](const nlohmann::json&, std::stop_token, const ToolContext&) { return ToolOutput{"ok"}; });
}

const ToolRegistry& registry() {
  static const auto instance = [] {
    auto created = ToolRegistry::create(
        {noop_tool("noop_parallel", true), noop_tool("noop_serial", false)}, {});
    if (!created.ok()) throw std::runtime_error("scheduler_bench: " + created.error());
    return std::move(created.value());
  }();
  return *instance;
}

std::vector<ToolCall> calls_to(const std::string& name, int count) {
  std::vector<ToolCall> calls;
  for (int i = 0; i < count; ++i) {
    calls.push_back(
        ToolCall{"call_" + std::to_string(i), name, R"({"path":"src/main.cpp","offset":10})"});
  }
  return calls;
}

// One batch per iteration through a scheduler with an event sink, as nib's loop has one.
void run_batches(benchmark::State& state, const std::string& tool, int count) {
  std::size_t events = 0;
  SchedulerOptions options;
  options.tools = &registry();
  options.on_event = [&events](const Event&) { ++events; };
  ToolScheduler scheduler(options);
  const auto calls = calls_to(tool, count);
  for (auto _ : state) {
    auto results = scheduler.execute_batch(calls, std::stop_token{});
    benchmark::DoNotOptimize(results);
  }
  state.counters["events/batch"] =
      static_cast<double>(events) / static_cast<double>(state.iterations());
}

void BM_ParallelBatchOf5(benchmark::State& state) {
  run_batches(state, "noop_parallel", 5);
}
BENCHMARK(BM_ParallelBatchOf5)->UseRealTime();

void BM_SerialBatchOf5(benchmark::State& state) {
  run_batches(state, "noop_serial", 5);
}
BENCHMARK(BM_SerialBatchOf5)->UseRealTime();

void BM_BatchOf1(benchmark::State& state) {
  run_batches(state, "noop_parallel", 1);
}
BENCHMARK(BM_BatchOf1)->UseRealTime();

void BM_ThreadStartJoin(benchmark::State& state) {
  for (auto _ : state) std::thread([] {}).join();
}
BENCHMARK(BM_ThreadStartJoin)->UseRealTime();

void BM_PrepareOneCall(benchmark::State& state) {
  const auto call = calls_to("noop_parallel", 1).front();
  for (auto _ : state) {
    auto prepared = prepare_tool_call(call, registry(), ToolContext{});
    benchmark::DoNotOptimize(prepared);
  }
}
BENCHMARK(BM_PrepareOneCall);

}  // namespace
}  // namespace nib::core

BENCHMARK_MAIN();
