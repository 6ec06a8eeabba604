// What a running call reports (ToolContext::report, a subagent's events) reaches the run's sink
// from the scheduler's thread, after the call's tool_running and before its tool_settled.
#include <gtest/gtest.h>

#include <thread>

#include "core/tool_scheduler.hpp"

namespace nib::core {
namespace {

// Reports `count` subagent events from its worker thread, then returns.
ToolPtr reporting_tool(int count) {
  return make_tool(ToolSpec{"reporter", "reports", {{"type", "object"}}, /*concurrency_safe=*/true},
                   [count](const nlohmann::json&, std::stop_token, const ToolContext& context) {
                     for (int i = 0; i < count; ++i) {
                       context.report(SubagentEvent{
                           context.tool_call_id, "general-1", "general",
                           std::make_shared<NestedEvent>(NestedEvent{TurnStartEvent{i + 1}})});
                     }
                     return ToolOutput{"reported"};
                   });
}

TEST(ToolReportTest, ReportsAreEmittedOnTheSchedulersThreadWithinTheirCall) {
  auto created = ToolRegistry::create({reporting_tool(100)}, {});
  ASSERT_TRUE(created.ok()) << created.error();
  const auto registry = std::move(created.value());
  std::vector<std::string> order;
  std::vector<int> turns;
  bool other_thread = false;
  const std::thread::id scheduler_thread = std::this_thread::get_id();
  SchedulerOptions options;
  options.tools = registry.get();
  options.on_event = [&](const Event& event) {
    other_thread = other_thread || std::this_thread::get_id() != scheduler_thread;
    if (const auto* nested = std::get_if<SubagentEvent>(&event)) {
      if (order.empty() || order.back() != "report:" + nested->tool_call_id) {
        order.push_back("report:" + nested->tool_call_id);
      }
      turns.push_back(std::get<TurnStartEvent>(nested->event->event).turn);
    } else if (const auto* running = std::get_if<ToolRunningEvent>(&event)) {
      order.push_back("running:" + running->id);
    } else if (const auto* settled = std::get_if<ToolSettledEvent>(&event)) {
      order.push_back("settled:" + settled->outcome.result.tool_call_id);
    }
  };
  ToolScheduler scheduler(options);
  const auto results = scheduler.execute_batch({ToolCall{"a", "reporter", "{}"}}, {});
  EXPECT_FALSE(results.results.at(0).is_error);
  EXPECT_FALSE(other_thread);
  EXPECT_EQ(order, (std::vector<std::string>{"running:a", "report:a", "settled:a"}));
  ASSERT_EQ(turns.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(turns[static_cast<std::size_t>(i)], i + 1);
}

}  // namespace
}  // namespace nib::core
