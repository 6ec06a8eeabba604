// The tool-call event contract of core/events.hpp, checked on every path a call can take
// through the loop: run, rejected, refused by the gate, aborted (during the batch and during the
// reply), abandoned after the grace, turn limit, a reply cut at the token limit, a failed reply.

#include <gtest/gtest.h>

#include <future>
#include <map>
#include <mutex>
#include <thread>

#include "core/agent_loop.hpp"
#include "core/lingering_workers.hpp"
#include "support/fake_clock.hpp"
#include "support/gated_tool.hpp"
#include "support/registry_of.hpp"
#include "support/scripted_provider.hpp"

namespace nib::core {
namespace {

using testing::GatedTool;
using testing::ScriptedProvider;
using testing::text_reply;
using testing::tool_reply;

// Every event of a run, in order (sinks are called on the loop's thread; the lock is for the
// test thread that reads them).
class FullRecorder {
 public:
  EventSink sink() {
    return [this](const Event& event) {
      std::lock_guard lock(mutex_);
      events_.push_back(event);
    };
  }
  std::vector<Event> events() {
    std::lock_guard lock(mutex_);
    return events_;
  }

 private:
  std::mutex mutex_;
  std::vector<Event> events_;
};

std::string outcome_text(const ToolOutcome& outcome) {
  return content_text(outcome.result.content) + (outcome.result.is_error ? " (error)" : "");
}

// Checks the contract over a whole run's events; `expected_calls` is how many calls the run's
// replies made in all (so a path that loses a call's events entirely fails too).
void expect_contract(const std::vector<Event>& events, std::size_t expected_calls) {
  struct Seen {
    std::vector<std::size_t> start, running, settled, end;
    std::string settled_text, end_text;
  };
  std::map<std::string, Seen> seen;
  std::vector<std::vector<std::string>> replies;  // each reply's call ids, in call order
  std::vector<std::size_t> results_at;            // where each tool_results event is
  std::vector<std::vector<std::string>> results;  // and the ids it carries
  for (std::size_t at = 0; at < events.size(); ++at) {
    const Event& event = events[at];
    if (const auto* end = std::get_if<MessageEndEvent>(&event)) {
      std::vector<std::string> ids;
      for (const ToolCall& call : tool_calls_of(end->message)) ids.push_back(call.id);
      if (!ids.empty()) replies.push_back(std::move(ids));
    } else if (const auto* start = std::get_if<ToolStartEvent>(&event)) {
      seen[start->id].start.push_back(at);
    } else if (const auto* running = std::get_if<ToolRunningEvent>(&event)) {
      seen[running->id].running.push_back(at);
    } else if (const auto* settled = std::get_if<ToolSettledEvent>(&event)) {
      seen[settled->outcome.result.tool_call_id].settled.push_back(at);
      seen[settled->outcome.result.tool_call_id].settled_text = outcome_text(settled->outcome);
    } else if (const auto* tool_end = std::get_if<ToolEndEvent>(&event)) {
      seen[tool_end->outcome.result.tool_call_id].end.push_back(at);
      seen[tool_end->outcome.result.tool_call_id].end_text = outcome_text(tool_end->outcome);
    } else if (const auto* batch = std::get_if<ToolResultsEvent>(&event)) {
      results_at.push_back(at);
      std::vector<std::string> ids;
      for (const ToolResult& result : batch->message.results) ids.push_back(result.tool_call_id);
      results.push_back(std::move(ids));
    }
  }
  std::size_t calls = 0;
  for (const auto& reply : replies) calls += reply.size();
  EXPECT_EQ(calls, expected_calls);
  EXPECT_EQ(seen.size(), calls) << "tool events for calls no reply made";
  ASSERT_EQ(results.size(), replies.size()) << "one tool_results per reply with calls";
  for (std::size_t r = 0; r < replies.size(); ++r) {
    const auto& ids = replies[r];
    EXPECT_EQ(results[r], ids) << "tool_results holds the batch in call order";
    std::size_t previous_end = 0;
    for (const std::string& id : ids) {
      const Seen& call = seen[id];
      ASSERT_EQ(call.start.size(), 1u) << id;
      ASSERT_EQ(call.settled.size(), 1u) << id;
      ASSERT_EQ(call.end.size(), 1u) << id;
      ASSERT_LE(call.running.size(), 1u) << id;
      EXPECT_LT(call.start[0], call.settled[0]) << id;
      EXPECT_LE(call.settled[0], call.end[0]) << id;
      if (!call.running.empty()) {
        EXPECT_LT(call.start[0], call.running[0]) << id;
        EXPECT_LT(call.running[0], call.settled[0]) << id;
      }
      EXPECT_GT(call.end[0], previous_end) << id << ": tool_end out of call order";
      previous_end = call.end[0];
      EXPECT_EQ(call.settled_text, call.end_text) << id;
      EXPECT_LT(call.end[0], results_at[r]) << id;
    }
  }
}

ToolCall call_of(const std::string& tool, const std::string& id) {
  return ToolCall{id, tool, nlohmann::json{{"id", id}}.dump()};
}

class EventContractTest : public ::testing::Test {
 protected:
  EventContractTest()
      : safe_(std::make_shared<GatedTool>("safe", true)),
        serial_(std::make_shared<GatedTool>("serial", false)),
        stubborn_(std::make_shared<GatedTool>("stubborn", true, /*honour_stop=*/false)) {
    registry_ = testing::registry_of({safe_, serial_, stubborn_, testing::make_echo_tool()});
  }

  LoopOptions options() {
    LoopOptions options;
    options.provider = &provider_;
    options.tools = registry_.get();
    options.on_event = recorder_.sink();
    options.clock = &clock_;
    options.slots = &slots_;
    return options;
  }

  RunEndEvent run(const LoopOptions& options, std::stop_token stop = {}) {
    AgentLoop loop(options);
    std::vector<Message> history{UserMessage{text_content("go")}};
    return loop.run(history, stop);
  }

  ScriptedProvider provider_;
  std::shared_ptr<GatedTool> safe_, serial_, stubborn_;
  std::unique_ptr<ToolRegistry> registry_;
  FullRecorder recorder_;
  testing::FakeClock clock_;
  SlotPool slots_{2};
};

TEST_F(EventContractTest, CallsThatRunSettlingOutOfOrder) {
  // b settles before a; the serial call waits for both; a third safe call waits for a slot.
  provider_.push(tool_reply({call_of("safe", "a"), call_of("safe", "b"), call_of("safe", "c"),
                             call_of("serial", "d"), call_of("echo", "e")}));
  provider_.push(text_reply("done"));
  auto finished = std::async(std::launch::async, [&] { return run(options()); });
  safe_->await_started("b");
  safe_->open("b");
  safe_->await_started("c");
  safe_->open_all();
  serial_->open_all();
  EXPECT_EQ(finished.get().reason, RunStopReason::kDone);
  // echo's arguments lack "text": rejected by validation, in the same batch.
  expect_contract(recorder_.events(), 5);
}

TEST_F(EventContractTest, RejectedCalls) {
  provider_.push(tool_reply({ToolCall{"u", "no_such_tool", "{}"}, ToolCall{"j", "echo", "{oops"},
                             ToolCall{"s", "echo", R"({"text": 3})"},
                             ToolCall{"ok", "echo", R"({"text": "fine"})"}}));
  provider_.push(text_reply("done"));
  EXPECT_EQ(run(options()).reason, RunStopReason::kDone);
  expect_contract(recorder_.events(), 4);
}

TEST_F(EventContractTest, CallsTheGateRefuses) {
  auto opts = options();
  opts.gate = [](const GateRequest& request, std::stop_token) {
    return request.tool_call_id == "x" ? GateDecision{true, "no", "test"} : GateDecision{};
  };
  provider_.push(tool_reply(
      {ToolCall{"x", "echo", R"({"text": "1"})"}, ToolCall{"y", "echo", R"({"text": "2"})"}}));
  provider_.push(text_reply("done"));
  EXPECT_EQ(run(opts).reason, RunStopReason::kDone);
  expect_contract(recorder_.events(), 2);
}

TEST_F(EventContractTest, AbortDuringTheBatch) {
  std::stop_source stop;
  provider_.push(tool_reply(
      {call_of("safe", "a"), call_of("safe", "b"), call_of("safe", "c"), call_of("serial", "d")}));
  auto finished = std::async(std::launch::async, [&] { return run(options(), stop.get_token()); });
  safe_->await_started_count(2);  // c waits for a slot, d for the chunk
  stop.request_stop();
  EXPECT_EQ(finished.get().reason, RunStopReason::kAborted);
  expect_contract(recorder_.events(), 4);
}

TEST_F(EventContractTest, AbortDuringTheReply) {
  std::stop_source stop;
  provider_.push([&stop](std::stop_token) {
    stop.request_stop();  // the user interrupts while the reply streams
    auto reply = tool_reply({call_of("safe", "a"), call_of("serial", "b")});
    reply.stop_reason = StopReason::kAborted;
    return reply;
  });
  EXPECT_EQ(run(options(), stop.get_token()).reason, RunStopReason::kAborted);
  expect_contract(recorder_.events(), 2);
}

TEST_F(EventContractTest, AbandonedAfterTheGrace) {
  std::stop_source stop;
  provider_.push(tool_reply({call_of("stubborn", "a"), call_of("safe", "b")}));
  auto finished = std::async(std::launch::async, [&] { return run(options(), stop.get_token()); });
  stubborn_->await_started("a");
  safe_->await_started("b");
  stop.request_stop();
  clock_.await_waits(1);
  clock_.advance(kAbortGrace);
  EXPECT_EQ(finished.get().reason, RunStopReason::kAborted);
  stubborn_->open_all();  // let the abandoned worker end, and see it joined
  while (lingering_workers().reap() != 0) std::this_thread::yield();
  expect_contract(recorder_.events(), 2);
}

TEST_F(EventContractTest, TurnLimit) {
  auto opts = options();
  opts.max_turns = 1;
  provider_.push(tool_reply({ToolCall{"a", "echo", R"({"text": "1"})"}, call_of("serial", "b")}));
  EXPECT_EQ(run(opts).reason, RunStopReason::kMaxTurns);
  expect_contract(recorder_.events(), 2);
}

TEST_F(EventContractTest, AReplyCutAtTheTokenLimit) {
  provider_.push(
      tool_reply({ToolCall{"a", "echo", R"({"text": "1"})"}, ToolCall{"b", "echo", R"({"te)"}},
                 StopReason::kMaxTokens));
  provider_.push(text_reply("done"));
  EXPECT_EQ(run(options()).reason, RunStopReason::kDone);
  expect_contract(recorder_.events(), 2);
}

TEST_F(EventContractTest, AFailedReply) {
  auto reply = tool_reply({ToolCall{"a", "echo", R"({"text": "1"})"}});
  reply.stop_reason = StopReason::kError;
  reply.error_message = "stream ended before the reply was complete";
  provider_.push(reply);
  EXPECT_EQ(run(options()).reason, RunStopReason::kError);
  expect_contract(recorder_.events(), 1);
}

TEST_F(EventContractTest, SeveralTurns) {
  provider_.push(tool_reply({ToolCall{"a", "echo", R"({"text": "1"})"}}));
  provider_.push(tool_reply(
      {ToolCall{"b", "echo", R"({"text": "2"})"}, ToolCall{"c", "echo", R"({"text": "3"})"}}));
  provider_.push(text_reply("done"));
  EXPECT_EQ(run(options()).reason, RunStopReason::kDone);
  expect_contract(recorder_.events(), 3);
}

}  // namespace
}  // namespace nib::core
