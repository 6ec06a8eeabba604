// Randomised batches: whatever mix of tools, bad calls, gate decisions, failures and aborts a
// reply holds, every call gets exactly one result, in call order, with consistent events.

#include <gtest/gtest.h>

#include <future>
#include <map>
#include <random>

#include "core/tool_scheduler.hpp"
#include "support/event_recorder.hpp"
#include "support/fake_clock.hpp"
#include "support/gated_tool.hpp"
#include "support/registry_of.hpp"

namespace nib::core {
namespace {

ToolCall random_call(std::mt19937& rng, int index) {
  const std::string id = "c" + std::to_string(index);
  nlohmann::json args = {{"id", id}};
  switch (rng() % 8) {
    case 0:
      return ToolCall{id, "missing_tool", args.dump()};
    case 1:
      return ToolCall{id, "safe", "{\"id\": "};  // not JSON
    case 2:
      return ToolCall{id, "safe", R"({"id": 7})"};  // fails the schema
    case 3:
      args["throw"] = true;
      break;
    case 4:
      args["fail"] = true;
      break;
    default:
      break;
  }
  if (rng() % 3 == 0) args["resource"] = "r" + std::to_string(rng() % 2);
  return ToolCall{id, rng() % 3 == 0 ? "serial" : "safe", args.dump()};
}

void check_batch(const std::vector<ToolCall>& calls, const ToolResultMessage& results,
                 testing::EventRecorder& events) {
  ASSERT_EQ(results.results.size(), calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(results.results[i].tool_call_id, calls[i].id);
    EXPECT_EQ(results.results[i].tool_name, calls[i].name);
  }
  std::vector<std::string> expected_ends;
  for (const auto& call : calls) expected_ends.push_back("end:" + call.id);
  EXPECT_EQ(events.events_with("end:"), expected_ends);
  std::map<std::string, int> starts, settles, runs;
  for (const auto& e : events.events()) {
    const auto colon = e.find(':');
    const std::string kind = e.substr(0, colon), id = e.substr(colon + 1);
    if (kind == "start") ++starts[id];
    if (kind == "settled") ++settles[id];
    if (kind == "running") ++runs[id];
  }
  for (const auto& call : calls) {
    EXPECT_EQ(starts[call.id], 1) << call.id;
    EXPECT_EQ(settles[call.id], 1) << call.id;
    EXPECT_LE(runs[call.id], 1) << call.id;
  }
}

TEST(SchedulerInvariantTest, RandomBatchesGetExactlyOneResultPerCall) {
  for (unsigned seed = 1; seed <= 60; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    auto safe = std::make_shared<testing::GatedTool>("safe", true);
    auto serial = std::make_shared<testing::GatedTool>("serial", false);
    safe->open_all();
    serial->open_all();
    auto registry = testing::registry_of({safe, serial});
    testing::EventRecorder events;
    testing::FakeClock clock;
    SlotPool slots(1 + rng() % kMaxConcurrentTools);
    SchedulerOptions options;
    options.tools = registry.get();
    options.on_event = events.sink();
    options.clock = &clock;
    options.slots = &slots;
    options.gate = [blocked = rng() % 5](const GateRequest& request, std::stop_token) {
      return GateDecision{request.tool_call_id == "c" + std::to_string(blocked), "no", "test"};
    };
    ToolScheduler scheduler(options);

    std::vector<ToolCall> calls;
    const int count = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < count; ++i) calls.push_back(random_call(rng, i));
    std::stop_source stop;
    if (rng() % 4 == 0) stop.request_stop();
    const auto results = scheduler.execute_batch(calls, stop.get_token());
    check_batch(calls, results, events);
  }
}

TEST(SchedulerInvariantTest, AbortAtEveryPointOfABatchKeepsTheInvariant) {
  // Abort once the k-th call has started; the tools honour the stop, so no grace is needed.
  for (int abort_after = 1; abort_after <= 6; ++abort_after) {
    SCOPED_TRACE("abort after " + std::to_string(abort_after));
    auto safe = std::make_shared<testing::GatedTool>("safe", true);
    auto serial = std::make_shared<testing::GatedTool>("serial", false);
    auto registry = testing::registry_of({safe, serial});
    testing::EventRecorder events;
    SchedulerOptions options;
    options.tools = registry.get();
    options.on_event = events.sink();
    ToolScheduler scheduler(options);
    std::vector<ToolCall> calls;
    for (int i = 0; i < 6; ++i) {
      const std::string id = "c" + std::to_string(i);
      calls.push_back(
          ToolCall{id, i % 3 == 2 ? "serial" : "safe", nlohmann::json{{"id", id}}.dump()});
    }
    std::stop_source stop;
    auto batch = std::async(std::launch::async,
                            [&] { return scheduler.execute_batch(calls, stop.get_token()); });
    // Let calls finish one at a time until `abort_after` have started, then abort.
    int started = 0;
    for (const auto& call : calls) {
      auto& tool = call.name == "safe" ? *safe : *serial;
      tool.await_started(call.id);
      if (++started == abort_after) break;
      tool.open(call.id);
    }
    stop.request_stop();
    const auto results = batch.get();
    check_batch(calls, results, events);
  }
}

}  // namespace
}  // namespace nib::core
