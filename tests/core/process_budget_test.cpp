// The process-wide budget and claim table that the schedulers of every run share
// (core/slot_pool.hpp, core/claim_table.hpp): slots taken and given back across threads,
// claims ordered by ticket, and two schedulers (two runs) keeping conflicting calls apart.

#include <gtest/gtest.h>

#include <future>

#include "core/claim_table.hpp"
#include "core/slot_pool.hpp"
#include "core/tool_scheduler.hpp"
#include "support/event_recorder.hpp"
#include "support/gated_tool.hpp"
#include "support/registry_of.hpp"

namespace nib::core {
namespace {

using testing::GatedTool;

TEST(SlotPoolTest, AcquireWaitsForAReleaseOrTheStop) {
  SlotPool pool(1);
  ASSERT_TRUE(pool.try_acquire());
  auto waiting = std::async(std::launch::async, [&pool] { return pool.acquire({}); });
  pool.release();
  EXPECT_TRUE(waiting.get());
  std::stop_source stop;
  auto stopped = std::async(std::launch::async, [&] { return pool.acquire(stop.get_token()); });
  stop.request_stop();
  EXPECT_FALSE(stopped.get()) << "stopped while waiting: no slot";
  pool.release();
  EXPECT_TRUE(pool.try_acquire());
}

TEST(SlotPoolTest, ResizingLetsWaitersIn) {
  SlotPool pool(1);
  ASSERT_TRUE(pool.try_acquire());
  auto waiting = std::async(std::launch::async, [&pool] { return pool.acquire({}); });
  pool.resize(2);
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(pool.capacity(), 2u);
}

TEST(ClaimTableTest, AConflictingCallWaitsForEveryEarlierOne) {
  ClaimTable table;
  const auto write_a = table.enter({{"a", true}});
  const auto read_a = table.enter({{"a", false}});
  const auto read_b = table.enter({{"b", false}});
  const auto second_read_a = table.enter({{"a", false}});
  EXPECT_TRUE(table.may_start(write_a));
  EXPECT_FALSE(table.may_start(read_a)) << "behind the earlier write of a";
  EXPECT_TRUE(table.may_start(read_b)) << "nothing earlier touches b";
  table.leave(write_a);
  EXPECT_TRUE(table.may_start(read_a));
  EXPECT_TRUE(table.may_start(second_read_a)) << "two reads share a";
  const auto later_write_a = table.enter({{"a", true}});
  EXPECT_FALSE(table.may_start(later_write_a)) << "a writer never overtakes earlier readers";
  table.leave(read_a);
  table.leave(second_read_a);
  EXPECT_TRUE(table.may_start(later_write_a));
}

TEST(ClaimTableTest, LeavingWakesListeners) {
  ClaimTable table;
  int woken = 0;
  ClaimTable::Listener listener(table, [&woken] { ++woken; });
  table.leave(table.enter({{"a", true}}));
  EXPECT_EQ(woken, 1);
}

class TwoRunsTest : public ::testing::Test {
 protected:
  TwoRunsTest() : safe_(std::make_shared<GatedTool>("safe", true)) {
    registry_ = testing::registry_of({safe_, delegating_});
  }
  SchedulerOptions options(testing::EventRecorder& events) {
    SchedulerOptions options;
    options.tools = registry_.get();
    options.on_event = events.sink();
    options.slots = &slots_;
    options.claims = &claims_;
    return options;
  }
  ToolCall call(const std::string& tool, const std::string& id, nlohmann::json extra = {}) {
    nlohmann::json args = {{"id", id}};
    if (extra.is_object()) args.update(extra);
    return ToolCall{id, tool, args.dump()};
  }

  std::shared_ptr<GatedTool> safe_;
  std::shared_ptr<GatedTool> delegating_ =
      std::make_shared<GatedTool>("task", true, true, /*delegates=*/true);
  std::unique_ptr<ToolRegistry> registry_;
  SlotPool slots_{kMaxConcurrentTools};
  ClaimTable claims_;
};

TEST_F(TwoRunsTest, ConflictingCallsOfTwoRunsNeverOverlapButOthersRunTogether) {
  testing::EventRecorder first_events, second_events;
  ToolScheduler first(options(first_events)), second(options(second_events));
  auto one = std::async(std::launch::async, [&] {
    return first.execute_batch({call("safe", "w", {{"resource", "f"}})}, {});
  });
  safe_->await_started("w");  // the first run writes f
  auto two = std::async(std::launch::async, [&] {
    return second.execute_batch({call("safe", "r", {{"resource", "f"}, {"shared", true}}),
                                 call("safe", "g", {{"resource", "g"}})},
                                {});
  });
  safe_->await_started("g");  // the second run's call on g runs at once...
  second_events.await("start:r");
  EXPECT_TRUE(second_events.events_with("running:r").empty()) << "...its read of f waits";
  safe_->open("g");
  second_events.await("settled:g");
  EXPECT_TRUE(second_events.events_with("running:r").empty());
  safe_->open("w");
  one.get();
  safe_->await_started("r");  // once the write has ended
  safe_->open("r");
  EXPECT_EQ(two.get().results.size(), 2u);
}

TEST_F(TwoRunsTest, ADelegatingCallTakesNoSlot) {
  // One slot: the task waits for work of its own (here: the test), and the read still runs.
  SlotPool one_slot(1);
  testing::EventRecorder events;
  auto opts = options(events);
  opts.slots = &one_slot;
  ToolScheduler scheduler(opts);
  auto batch = std::async(std::launch::async, [&] {
    return scheduler.execute_batch({call("task", "t"), call("safe", "a")}, {});
  });
  delegating_->await_started("t");
  safe_->await_started("a");
  safe_->open("a");
  delegating_->open("t");
  EXPECT_EQ(batch.get().results.size(), 2u);
  EXPECT_TRUE(one_slot.try_acquire()) << "the slot came back";
}

}  // namespace
}  // namespace nib::core
