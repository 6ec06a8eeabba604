#include "core/tool_scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <future>
#include <system_error>
#include <thread>

#include "core/lingering_workers.hpp"
#include "support/event_recorder.hpp"
#include "support/fake_clock.hpp"
#include "support/gated_tool.hpp"
#include "support/registry_of.hpp"

namespace nib::core {
namespace {

using testing::EventRecorder;
using testing::FakeClock;
using testing::GatedTool;

ToolCall call(const std::string& tool, const std::string& id, nlohmann::json extra = {}) {
  nlohmann::json args = {{"id", id}};
  if (extra.is_object()) args.update(extra);
  return ToolCall{id, tool, args.dump()};
}

std::string text_of(const ToolResult& result) {
  return content_text(result.content);
}

// Where `event` is in `events` (events.size() when absent).
std::ptrdiff_t position(const std::vector<std::string>& events, const std::string& event) {
  return std::find(events.begin(), events.end(), event) - events.begin();
}

class SchedulerTest : public ::testing::Test {
 protected:
  SchedulerTest()
      : safe_(std::make_shared<GatedTool>("safe", true)),
        serial_(std::make_shared<GatedTool>("serial", false)),
        stubborn_(std::make_shared<GatedTool>("stubborn", true, /*honour_stop=*/false)) {
    registry_ = testing::registry_of({safe_, serial_, stubborn_, testing::make_echo_tool()});
  }

  SchedulerOptions options() {
    SchedulerOptions options;
    options.tools = registry_.get();
    options.on_event = events_.sink();
    options.clock = &clock_;
    options.slots = &slots_;
    return options;
  }

  // Runs the batch on another thread so the test can drive the gated tools meanwhile.
  std::future<ToolResultMessage> start(ToolScheduler& scheduler, std::vector<ToolCall> calls,
                                       std::stop_token stop = {}) {
    return std::async(std::launch::async, [&scheduler, calls = std::move(calls), stop] {
      return scheduler.execute_batch(calls, stop);
    });
  }

  std::shared_ptr<GatedTool> safe_, serial_, stubborn_;
  std::unique_ptr<ToolRegistry> registry_;
  EventRecorder events_;
  FakeClock clock_;
  SlotPool slots_{kMaxConcurrentTools};
};

TEST_F(SchedulerTest, SevenConcurrentCallsUseAWindowOfFiveAndEndInCallOrder) {
  ToolScheduler scheduler(options());
  std::vector<ToolCall> calls;
  for (const char* id : {"a", "b", "c", "d", "e", "f", "g"}) calls.push_back(call("safe", id));
  auto batch = start(scheduler, calls);

  safe_->await_started_count(5);
  EXPECT_EQ(
      events_.events_with("running:"),
      (std::vector<std::string>{"running:a", "running:b", "running:c", "running:d", "running:e"}));

  // b finishes first: f takes its slot at once, b settles, but b's tool_end waits for a.
  safe_->open("b");
  safe_->await_started("f");
  events_.await("settled:b");
  EXPECT_TRUE(events_.events_with("end:").empty());

  safe_->open("c");
  safe_->await_started("g");
  for (const char* id : {"d", "e", "f", "g"}) {
    safe_->open(id);
    events_.await(std::string("settled:") + id);
  }
  EXPECT_TRUE(events_.events_with("end:").empty());

  safe_->open("a");
  const auto results = batch.get();

  EXPECT_EQ(safe_->max_concurrent(), 5u);
  EXPECT_EQ(
      events_.events_with("end:"),
      (std::vector<std::string>{"end:a", "end:b", "end:c", "end:d", "end:e", "end:f", "end:g"}));
  EXPECT_EQ(events_.events_with("settled:").back(), "settled:a");
  ASSERT_EQ(results.results.size(), 7u);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(results.results[i].tool_call_id, calls[i].id);
    EXPECT_EQ(text_of(results.results[i]), "done " + calls[i].id);
  }
}

TEST_F(SchedulerTest, EveryCallIsRegisteredBeforeAnyRunsAndRunsBeforeItSettles) {
  ToolScheduler scheduler(options());
  safe_->open_all();
  scheduler.execute_batch({call("safe", "a"), call("safe", "b")}, {});
  const auto events = events_.events();
  EXPECT_LT(position(events, "start:b"), position(events, "running:a"));
  EXPECT_LT(position(events, "running:a"), position(events, "settled:a"));
  EXPECT_LT(position(events, "settled:a"), position(events, "end:a"));
}

TEST_F(SchedulerTest, SerialCallIsABarrier) {
  ToolScheduler scheduler(options());
  auto batch = start(
      scheduler, {call("safe", "A"), call("safe", "B"), call("serial", "C"), call("safe", "D")});
  safe_->await_started_count(2);  // A and B run together
  safe_->open("A");
  events_.await("settled:A");
  safe_->open("B");
  serial_->await_started("C");
  serial_->open("C");
  safe_->await_started("D");
  safe_->open("D");
  const auto results = batch.get();
  ASSERT_EQ(results.results.size(), 4u);
  // The scheduler emits running:X on its own thread as it starts X, so the order of events is
  // the order of decisions: C started only once B had settled (not when A did, while the test
  // still held B), and D only once C had settled.
  const auto events = events_.events();
  EXPECT_LT(position(events, "settled:B"), position(events, "running:C"));
  EXPECT_LT(position(events, "settled:C"), position(events, "running:D"));
  EXPECT_EQ(events_.events_with("end:"),
            (std::vector<std::string>{"end:A", "end:B", "end:C", "end:D"}));
}

TEST_F(SchedulerTest, AWholeChunkIsValidatedAndGatedInCallOrderBeforeAnyOfItRuns) {
  auto opts = options();
  std::vector<std::string> gated;
  std::vector<std::size_t> running_when_gated;
  opts.gate = [&](const GateRequest& request, std::stop_token) {
    // The gate runs on the scheduler's thread, which is also where running:X is emitted as X
    // starts, so a call started during gating would already show here.
    gated.push_back(request.tool_call_id);
    running_when_gated.push_back(events_.events_with("running:").size());
    return GateDecision{};
  };
  ToolScheduler scheduler(opts);
  safe_->open_all();
  const auto results = scheduler.execute_batch(
      {call("safe", "a"), call("safe", "b"), ToolCall{"bad", "safe", "{oops"}, call("safe", "c")},
      {});
  EXPECT_EQ(gated, (std::vector<std::string>{"a", "b", "c"})) << "the invalid call is not gated";
  EXPECT_EQ(running_when_gated, (std::vector<std::size_t>{0, 0, 0}));
  const auto events = events_.events();
  EXPECT_LT(position(events, "settled:bad"), position(events, "running:a"))
      << "validation of the whole chunk comes first too";
  ASSERT_EQ(results.results.size(), 4u);
  EXPECT_TRUE(results.results[2].is_error);
}

TEST_F(SchedulerTest, DurationExcludesTimeSpentWaitingForASlot) {
  SlotPool one_slot(1);
  auto opts = options();
  opts.slots = &one_slot;
  ToolScheduler scheduler(opts);
  auto batch = start(scheduler, {call("safe", "a"), call("safe", "b")});
  safe_->await_started("a");
  clock_.advance(std::chrono::seconds(5));  // a runs for 5 s while b waits for the slot
  safe_->open("a");
  safe_->await_started("b");
  safe_->open("b");
  batch.get();
  const auto ended = events_.ended();
  ASSERT_EQ(ended.size(), 2u);
  EXPECT_EQ(ended[0].duration, std::chrono::seconds(5));
  EXPECT_EQ(ended[1].duration, std::chrono::milliseconds(0));
}

TEST_F(SchedulerTest, AbortGivesOneSharedGraceThenAbandonsAndDropsTheLateResult) {
  ToolScheduler scheduler(options());
  std::stop_source stop;
  // a honours the abort, b ignores it, c waits for a slot and never runs; d is a later chunk.
  SlotPool two_slots(2);
  // The abandoned worker outlives the test's scheduler and clock; it touches neither.
  FakeClock clock;
  auto opts = options();
  opts.slots = &two_slots;
  opts.clock = &clock;
  ToolScheduler limited(opts);
  auto batch = start(
      limited, {call("safe", "a"), call("stubborn", "b"), call("safe", "c"), call("serial", "d")},
      stop.get_token());
  safe_->await_started("a");
  stubborn_->await_started("b");

  stop.request_stop();
  clock.await_waits(1);  // the scheduler is now inside the grace period
  events_.await("settled:a");
  clock.advance(std::chrono::seconds(9));
  clock.await_waits(2);  // still waiting: 9 s is within the grace
  EXPECT_EQ(events_.events_with("settled:b").size(), 0u);
  clock.advance(std::chrono::seconds(1));
  const auto results = batch.get();

  ASSERT_EQ(results.results.size(), 4u);
  // The call was running and may change things: its result says that stopping did not undo it.
  EXPECT_EQ(text_of(results.results[0]), std::string("aborted a\n") + kStoppedNotUndoneNote);
  EXPECT_TRUE(results.results[1].is_error);
  EXPECT_NE(text_of(results.results[1]).find("abandoned"), std::string::npos);
  EXPECT_NE(text_of(results.results[1]).find("may still be running"), std::string::npos);
  EXPECT_EQ(text_of(results.results[2]), kInterruptedBeforeRun);
  EXPECT_EQ(text_of(results.results[3]), kInterruptedBeforeRun);
  EXPECT_TRUE(serial_->start_order().empty());
  EXPECT_EQ(safe_->start_order(), std::vector<std::string>{"a"});

  // The stubborn tool finishes late: its result goes nowhere, and the next batch is unaffected.
  stubborn_->open("b");
  safe_->open_all();
  const auto next = limited.execute_batch({call("safe", "e")}, {});
  ASSERT_EQ(next.results.size(), 1u);
  EXPECT_EQ(text_of(next.results[0]), "done e");
  EXPECT_EQ(events_.events_with("end:b").size(), 1u);
  // The next batch joins the late worker only if it had finished by then; see it joined.
  while (lingering_workers().reap() != 0) std::this_thread::yield();
}

TEST_F(SchedulerTest, AbortBeforeTheBatchRunsNothing) {
  ToolScheduler scheduler(options());
  std::stop_source stop;
  stop.request_stop();
  const auto results =
      scheduler.execute_batch({call("safe", "a"), call("serial", "b")}, stop.get_token());
  ASSERT_EQ(results.results.size(), 2u);
  for (const auto& result : results.results) EXPECT_EQ(text_of(result), kInterruptedBeforeRun);
  EXPECT_TRUE(safe_->start_order().empty());
}

TEST_F(SchedulerTest, BlockingGateStopsTheCallAndTakesNoSlot) {
  SlotPool one_slot(1);
  auto opts = options();
  opts.slots = &one_slot;
  std::vector<std::string> gated;
  opts.gate = [&](const GateRequest& request, std::stop_token) {
    gated.push_back(request.tool_call_id);
    if (request.tool_call_id == "a") return GateDecision{true, "reads are off today", "policy"};
    return GateDecision{};
  };
  ToolScheduler scheduler(opts);
  safe_->open_all();
  const auto results = scheduler.execute_batch({call("safe", "a"), call("safe", "b")}, {});
  EXPECT_EQ(gated, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(text_of(results.results[0]), "Tool \"safe\" blocked by policy: reads are off today");
  EXPECT_TRUE(results.results[0].is_error);
  EXPECT_EQ(text_of(results.results[1]), "done b");
  EXPECT_EQ(safe_->start_order(), std::vector<std::string>{"b"});
}

TEST_F(SchedulerTest, RewrittenArgumentsRunAndTheRunningEventCarriesThem) {
  auto opts = options();
  opts.pre_tool = [](const GateRequest& request, std::stop_token) {
    PreToolVerdict verdict;
    if (request.tool_call_id == "b") verdict.updated_args = nlohmann::json{{"text", "changed"}};
    return verdict;
  };
  std::vector<std::optional<std::string>> running_arguments;
  opts.on_event = [&](const Event& event) {
    if (const auto* running = std::get_if<ToolRunningEvent>(&event)) {
      running_arguments.push_back(running->arguments);
    }
  };
  ToolScheduler scheduler(opts);
  const auto results = scheduler.execute_batch(
      {ToolCall{"a", "echo", R"({"text":"one"})"}, ToolCall{"b", "echo", R"({"text":"two"})"}}, {});
  EXPECT_EQ(running_arguments,
            (std::vector<std::optional<std::string>>{std::nullopt, R"({"text":"changed"})"}));
  EXPECT_EQ(text_of(results.results[0]), "one");
  EXPECT_EQ(text_of(results.results[1]).substr(0, 9), "changed\n\n");
}

TEST_F(SchedulerTest, AfterToolRunsOnEachCallThatRanBeforeItsResultIsFinal) {
  auto opts = options();
  opts.gate = [](const GateRequest& request, std::stop_token) {
    return request.tool_call_id == "b" ? GateDecision{true, "no", "policy"} : GateDecision{};
  };
  std::atomic<int> after_calls = 0;
  opts.after_tool = [&](const GateRequest& request, ToolResult& result, std::stop_token) {
    ++after_calls;
    append_text(result.content, "checked " + request.tool_call_id);
  };
  ToolScheduler scheduler(opts);
  safe_->open_all();
  const auto results = scheduler.execute_batch({call("safe", "a"), call("safe", "b")}, {});
  EXPECT_EQ(text_of(results.results[0]), "done a\n\nchecked a");
  EXPECT_EQ(text_of(results.results[1]), "Tool \"safe\" blocked by policy: no");
  EXPECT_EQ(after_calls, 1);
}

TEST_F(SchedulerTest, GateThatThrowsBlocks) {
  auto opts = options();
  opts.gate = [](const GateRequest&, std::stop_token) -> GateDecision {
    throw std::runtime_error("approval service unreachable");
  };
  ToolScheduler scheduler(opts);
  safe_->open_all();
  const auto results = scheduler.execute_batch({call("safe", "a")}, {});
  EXPECT_TRUE(results.results[0].is_error);
  EXPECT_NE(text_of(results.results[0]).find("approval service unreachable"), std::string::npos);
  EXPECT_TRUE(safe_->start_order().empty());
}

TEST_F(SchedulerTest, ThrowingToolBecomesAnErrorResultAndSiblingsContinue) {
  ToolScheduler scheduler(options());
  safe_->open_all();
  const auto results =
      scheduler.execute_batch({call("safe", "a", {{"throw", true}}),
                               call("safe", "b", {{"fail", true}}), call("safe", "c")},
                              {});
  EXPECT_EQ(text_of(results.results[0]), "Error: tool safe threw: boom a");
  EXPECT_TRUE(results.results[0].is_error);
  EXPECT_EQ(text_of(results.results[1]), "failed b");
  EXPECT_TRUE(results.results[1].is_error);
  EXPECT_EQ(text_of(results.results[2]), "done c");
}

TEST_F(SchedulerTest, RejectedCallsGetResultsInPlace) {
  ToolScheduler scheduler(options());
  safe_->open_all();
  const auto results =
      scheduler.execute_batch({call("safe", "a"), ToolCall{"x", "nope", "{}"},
                               ToolCall{"y", "safe", "{\"id\":"}, call("safe", "b")},
                              {});
  ASSERT_EQ(results.results.size(), 4u);
  EXPECT_EQ(results.results[1].tool_call_id, "x");
  EXPECT_NE(text_of(results.results[1]).find("unknown tool \"nope\""), std::string::npos);
  EXPECT_NE(text_of(results.results[2]).find("not valid JSON"), std::string::npos);
  EXPECT_EQ(text_of(results.results[3]), "done b");
  EXPECT_EQ(safe_->start_order(), (std::vector<std::string>{"a", "b"}));
}

TEST_F(SchedulerTest, DisplayReachesEventsButNotHistory) {
  ToolScheduler scheduler(options());
  safe_->open_all();
  const auto results = scheduler.execute_batch({call("safe", "a")}, {});
  ASSERT_EQ(events_.ended().size(), 1u);
  EXPECT_EQ(events_.ended()[0].display, "display a");
  EXPECT_EQ(text_of(results.results[0]), "done a");  // the history's result has no display
}

TEST_F(SchedulerTest, ConflictingClaimsNeverOverlapButOthersProceed) {
  ToolScheduler scheduler(options());
  auto batch = start(
      scheduler, {call("safe", "a", {{"resource", "f"}}), call("safe", "b", {{"resource", "f"}}),
                  call("safe", "c", {{"resource", "g"}})});
  safe_->await_started("a");
  safe_->await_started("c");
  EXPECT_EQ(safe_->start_order().size(), 2u);  // b waits for a, c does not
  safe_->open("a");
  safe_->await_started("b");
  safe_->open("b");
  safe_->open("c");
  batch.get();
  EXPECT_EQ(safe_->max_concurrent(), 2u);
}

TEST_F(SchedulerTest, ConcurrencyLimitIsSharedAcrossSchedulers) {
  SlotPool shared(3);
  auto opts = options();
  opts.slots = &shared;
  ToolScheduler first(opts), second(opts);
  auto one = start(first, {call("safe", "a"), call("safe", "b")});
  auto two = start(second, {call("safe", "c"), call("safe", "d")});
  safe_->await_started_count(3);
  EXPECT_EQ(safe_->start_order().size(), 3u);
  safe_->open_all();
  one.get();
  two.get();
  EXPECT_EQ(safe_->max_concurrent(), 3u);
  EXPECT_EQ(safe_->start_order().size(), 4u);
}

// The address space this process has mapped, in KiB (/proc/self/status VmSize).
long mapped_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmSize:", 0) == 0) return std::stol(line.substr(7));
  }
  return 0;
}

// A call that only reads changed nothing: stopping it needs no word about undoing.
TEST_F(SchedulerTest, AStoppedReadOnlyCallGetsNoNoteAboutUndoing) {
  std::stop_source stop;
  ToolSpec spec{"look", "", {{"type", "object"}}, true};
  spec.access = AccessKind::kRead;
  auto look = make_tool(spec, [&stop](const nlohmann::json&, std::stop_token, const ToolContext&) {
    stop.request_stop();
    return ToolOutput{"looked"};
  });
  const auto registry = testing::registry_of({look});
  auto opts = options();
  opts.tools = registry.get();
  ToolScheduler scheduler(opts);
  const auto results = scheduler.execute_batch({ToolCall{"r1", "look", "{}"}}, stop.get_token());
  ASSERT_EQ(results.results.size(), 1u);
  EXPECT_EQ(text_of(results.results[0]), "looked");
}

TEST_F(SchedulerTest, ThousandsOfCallsHoldNoMoreThreadsThanTheBudget) {
  // A worker kept after its call finished still holds its stack (8 MiB of address space); two
  // thousand of them once made thread creation fail mid-batch.
  std::atomic<long> peak_kib{0};
  auto probe = make_tool(ToolSpec{"probe", "", {{"type", "object"}}, true},
                         [&peak_kib](const nlohmann::json&, std::stop_token, const ToolContext&) {
                           const long now = mapped_kib();
                           long seen = peak_kib.load();
                           while (now > seen && !peak_kib.compare_exchange_weak(seen, now)) {
                           }
                           return ToolOutput{"ok"};
                         });
  const auto registry = testing::registry_of({probe});
  auto opts = options();
  opts.tools = registry.get();
  ToolScheduler scheduler(opts);
  std::vector<ToolCall> calls;
  for (int i = 0; i < 2000; ++i) calls.push_back(ToolCall{"c" + std::to_string(i), "probe", "{}"});
  const long before_kib = mapped_kib();
  const auto results = scheduler.execute_batch(calls, {});
  ASSERT_EQ(results.results.size(), calls.size());
  for (const auto& result : results.results) EXPECT_FALSE(result.is_error) << text_of(result);
  EXPECT_LT(peak_kib.load() - before_kib, 1024L * 1024) << "1 GiB: far below 2000 stacks";
}

TEST_F(SchedulerTest, ACallWithoutAThreadGetsAnErrorResultAndTheOthersRun) {
  auto opts = options();
  std::atomic<int> starts{0};
  opts.start_thread = [&starts](std::function<void()> run) {
    if (starts++ == 1)
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    return std::thread(std::move(run));
  };
  ToolScheduler scheduler(opts);
  const auto results = scheduler.execute_batch(
      {ToolCall{"a", "echo", R"({"text":"one"})"}, ToolCall{"b", "echo", R"({"text":"two"})"},
       ToolCall{"c", "echo", R"({"text":"three"})"}},
      {});
  ASSERT_EQ(results.results.size(), 3u);
  EXPECT_EQ(text_of(results.results[0]), "one");
  EXPECT_TRUE(results.results[1].is_error);
  EXPECT_NE(text_of(results.results[1]).find("could not be started"), std::string::npos)
      << text_of(results.results[1]);
  EXPECT_EQ(text_of(results.results[2]), "three");
}

TEST_F(SchedulerTest, SettleUnrunGivesEveryCallItsResultWithEvents) {
  ToolScheduler scheduler(options());
  const auto results = scheduler.settle_unrun({call("safe", "a"), call("serial", "b")}, "not run");
  ASSERT_EQ(results.results.size(), 2u);
  EXPECT_EQ(text_of(results.results[1]), "not run");
  EXPECT_EQ(events_.events_with("end:"), (std::vector<std::string>{"end:a", "end:b"}));
  EXPECT_TRUE(events_.events_with("running:").empty());
}

}  // namespace
}  // namespace nib::core
