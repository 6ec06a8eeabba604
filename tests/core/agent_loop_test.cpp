#include "core/agent_loop.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <future>

#include "support/event_recorder.hpp"
#include "support/fake_clock.hpp"
#include "support/gated_tool.hpp"
#include "support/registry_of.hpp"
#include "support/scripted_provider.hpp"

namespace nib::core {
namespace {

using testing::EventRecorder;
using testing::GatedTool;
using testing::ScriptedProvider;
using testing::text_reply;
using testing::tool_reply;

ToolCall echo(const std::string& id, const std::string& text) {
  return ToolCall{id, "echo", nlohmann::json{{"text", text}}.dump()};
}

// The invariant every run must keep: each tool call in history has exactly one result, in the
// toolResult message right after the assistant message that made it, in call order.
void expect_one_result_per_call(const std::vector<Message>& history) {
  for (std::size_t i = 0; i < history.size(); ++i) {
    const auto* assistant = std::get_if<AssistantMessage>(&history[i]);
    if (!assistant) continue;
    const auto calls = tool_calls_of(*assistant);
    if (calls.empty()) continue;
    ASSERT_LT(i + 1, history.size()) << "tool calls without a result message";
    const auto* results = std::get_if<ToolResultMessage>(&history[i + 1]);
    ASSERT_NE(results, nullptr);
    ASSERT_EQ(results->results.size(), calls.size());
    for (std::size_t c = 0; c < calls.size(); ++c) {
      EXPECT_EQ(results->results[c].tool_call_id, calls[c].id);
    }
  }
}

class AgentLoopTest : public ::testing::Test {
 protected:
  AgentLoopTest() : gated_(std::make_shared<GatedTool>("gated", true)) {
    registry_ = testing::registry_of({testing::make_echo_tool(), gated_});
  }

  LoopOptions options() {
    LoopOptions options;
    options.provider = &provider_;
    options.tools = registry_.get();
    options.on_event = events_.sink();
    options.clock = &clock_;
    options.slots = &slots_;
    return options;
  }

  std::vector<Message> history_with_prompt(const std::string& prompt) {
    return {UserMessage{text_content(prompt)}};
  }

  ScriptedProvider provider_;
  std::shared_ptr<GatedTool> gated_;
  std::unique_ptr<ToolRegistry> registry_;
  EventRecorder events_;
  testing::FakeClock clock_;
  SlotPool slots_{kMaxConcurrentTools};
};

TEST_F(AgentLoopTest, RunsToolsThenAnswers) {
  provider_.push(tool_reply({echo("c1", "one"), echo("c2", "two")}));
  provider_.push(text_reply("all done"));
  AgentLoop loop(options());
  auto history = history_with_prompt("go");
  const auto end = loop.run(history, {});

  EXPECT_EQ(end.reason, RunStopReason::kDone);
  EXPECT_EQ(end.turns, 2);
  EXPECT_EQ(end.usage.input_tokens, 20);
  ASSERT_EQ(history.size(), 4u);
  const auto& results = std::get<ToolResultMessage>(history[2]);
  EXPECT_EQ(content_text(results.results[0].content), "one");
  EXPECT_EQ(content_text(results.results[1].content), "two");
  EXPECT_EQ(assistant_text(std::get<AssistantMessage>(history[3])), "all done");
  // The second request carried the tool results.
  ASSERT_EQ(provider_.requests().size(), 2u);
  EXPECT_EQ(provider_.requests()[1].size(), 3u);
  expect_one_result_per_call(history);
  EXPECT_EQ(events_.events().front(), "run_start");
  EXPECT_EQ(events_.events().back(), "run_end:done");
}

TEST_F(AgentLoopTest, ToolsAddedDuringARunAreOfferedFromTheNextRequestOn) {
  registry_->set_note("Server x is still connecting.");
  // While the first reply streams, a tool joins the registry and the note goes (an MCP server
  // became ready); the reply calls it.
  provider_.push([this](std::stop_token) {
    ToolSpec spec{"late", "added mid-run", {{"type", "object"}}};
    EXPECT_TRUE(registry_
                    ->add(make_tool(spec, [](const nlohmann::json&, std::stop_token,
                                             const ToolContext&) { return ToolOutput{"late ok"}; }))
                    .ok());
    registry_->set_note("");
    return tool_reply({ToolCall{"l1", "late", "{}"}});
  });
  provider_.push(text_reply("done"));
  AgentLoop loop(options());
  auto history = history_with_prompt("go");
  loop.run(history, {});

  const auto names = provider_.request_tool_names();
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(std::count(names[0].begin(), names[0].end(), "late"), 0);
  EXPECT_EQ(std::count(names[1].begin(), names[1].end(), "late"), 1);
  // The note is told in the conversation, once and when it changes; the system prompt stays.
  const auto prompts = provider_.system_prompts();
  EXPECT_EQ(prompts[0], prompts[1]);
  ASSERT_EQ(history.size(), 6u);
  EXPECT_EQ(content_text(std::get<UserMessage>(history[1]).content),
            "Note on tools: Server x is still connecting.");
  const auto& results = std::get<ToolResultMessage>(history[3]);
  EXPECT_EQ(content_text(results.results[0].content), "late ok");
  EXPECT_EQ(content_text(std::get<UserMessage>(history[4]).content),
            "Note on tools: every MCP server is now available.");
}

TEST_F(AgentLoopTest, ReplyCutAtTokenLimitRunsNoneOfItsCalls) {
  provider_.push(tool_reply({ToolCall{"g1", "gated", "{\"id\":\"g1\"}"}, echo("c2", "x")},
                            StopReason::kMaxTokens));
  provider_.push(text_reply("retried"));
  AgentLoop loop(options());
  auto history = history_with_prompt("go");
  const auto end = loop.run(history, {});

  EXPECT_EQ(end.reason, RunStopReason::kDone);
  EXPECT_TRUE(gated_->start_order().empty());
  const auto& results = std::get<ToolResultMessage>(history[2]);
  for (const auto& result : results.results) {
    EXPECT_TRUE(result.is_error);
    EXPECT_NE(content_text(result.content).find("output-token limit"), std::string::npos);
  }
  expect_one_result_per_call(history);
}

TEST_F(AgentLoopTest, TurnLimitGivesUnexecutedCallsResultsAndStops) {
  for (int i = 0; i < 3; ++i) provider_.push(tool_reply({echo("c" + std::to_string(i), "x")}));
  auto opts = options();
  opts.max_turns = 2;
  AgentLoop loop(opts);
  auto history = history_with_prompt("go");
  const auto end = loop.run(history, {});

  EXPECT_EQ(end.reason, RunStopReason::kMaxTurns);
  EXPECT_EQ(end.turns, 2);
  EXPECT_EQ(provider_.requests().size(), 2u);
  const auto& last = std::get<ToolResultMessage>(history.back());
  EXPECT_NE(content_text(last.results[0].content).find("turn limit"), std::string::npos);
  expect_one_result_per_call(history);
}

// The spending cap is checked before each request: the reply that reaches it still has its
// calls run (every call gets its result), and the run stops before asking again.
TEST_F(AgentLoopTest, SpendingCapStopsBeforeTheNextRequestWithEveryCallAnswered) {
  for (int i = 0; i < 5; ++i) {
    AssistantMessage reply = tool_reply({echo("c" + std::to_string(i), "x")});
    reply.usage.input_tokens = 1000;
    provider_.push(reply);
  }
  std::vector<std::string> priced_models;
  SpendMeter meter(0.25, [&](const std::string& model, const Usage& usage) {
    priced_models.push_back(model);
    return std::optional<double>(static_cast<double>(usage.input_tokens) / 10000);  // $0.10
  });
  auto opts = options();
  opts.model.id = "priced-model";
  opts.spend = &meter;
  AgentLoop loop(opts);
  auto history = history_with_prompt("go");
  const auto end = loop.run(history, {});

  EXPECT_EQ(end.reason, RunStopReason::kMaxBudget);
  EXPECT_EQ(provider_.requests().size(), 3u) << "$0.30 spent after the third: no fourth";
  EXPECT_NEAR(meter.spent_usd(), 0.30, 1e-9);
  EXPECT_NE(end.error_message.find("$0.25"), std::string::npos) << end.error_message;
  EXPECT_TRUE(std::holds_alternative<ToolResultMessage>(history.back()));
  expect_one_result_per_call(history);
  EXPECT_EQ(priced_models, std::vector<std::string>(3, "priced-model"));

  // A meter already spent stops the next run before its first request.
  AgentLoop again(opts);
  auto more = history_with_prompt("go on");
  EXPECT_EQ(again.run(more, {}).reason, RunStopReason::kMaxBudget);
  EXPECT_EQ(provider_.requests().size(), 3u);
}

TEST_F(AgentLoopTest, EveryRequestCarriesTheCacheKey) {
  provider_.push(tool_reply({echo("c1", "x")}));
  provider_.push(text_reply("done"));
  std::vector<std::string> keys;
  struct KeyProvider final : Provider {
    Provider* inner;
    std::vector<std::string>* keys;
    AssistantMessage stream(const ProviderRequest& request, std::stop_token stop,
                            const DeltaSink& on_delta) override {
      keys->push_back(request.cache_key);
      return inner->stream(request, stop, on_delta);
    }
  } provider;
  provider.inner = &provider_;
  provider.keys = &keys;
  auto opts = options();
  opts.provider = &provider;
  opts.cache_key = "session-1";
  AgentLoop loop(opts);
  auto history = history_with_prompt("go");
  loop.run(history, {});
  EXPECT_EQ(keys, std::vector<std::string>(2, "session-1"));
}

TEST_F(AgentLoopTest, HasNoTurnLimitUnlessOneIsSet) {
  constexpr int kTurns = 150;  // past the 100 that used to be the default cap
  for (int i = 0; i < kTurns; ++i) provider_.push(tool_reply({echo("c" + std::to_string(i), "x")}));
  provider_.push(text_reply("done"));
  AgentLoop loop(options());
  auto history = history_with_prompt("go");
  const auto end = loop.run(history, {});

  EXPECT_EQ(end.reason, RunStopReason::kDone);
  EXPECT_EQ(end.turns, kTurns + 1);
  expect_one_result_per_call(history);
}

TEST_F(AgentLoopTest, ProviderErrorEndsTheRunWithItsMessage) {
  AssistantMessage failed;
  failed.stop_reason = StopReason::kError;
  failed.error_message = "HTTP 500 from mock: boom";
  provider_.push(failed);
  AgentLoop loop(options());
  auto history = history_with_prompt("go");
  const auto end = loop.run(history, {});
  EXPECT_EQ(end.reason, RunStopReason::kError);
  EXPECT_EQ(end.error_message, "HTTP 500 from mock: boom");
}

TEST_F(AgentLoopTest, AbortDuringToolsWritesResultsAndMakesNoFurtherRequest) {
  provider_.push(tool_reply(
      {ToolCall{"g1", "gated", "{\"id\":\"g1\"}"}, ToolCall{"g2", "gated", "{\"id\":\"g2\"}"}}));
  provider_.push(text_reply("never requested"));
  std::stop_source stop;
  AgentLoop loop(options());
  auto history = history_with_prompt("go");
  auto run = std::async(std::launch::async, [&] { return loop.run(history, stop.get_token()); });
  gated_->await_started_count(2);
  stop.request_stop();
  const auto end = run.get();

  EXPECT_EQ(end.reason, RunStopReason::kAborted);
  EXPECT_EQ(provider_.requests().size(), 1u);
  const auto& results = std::get<ToolResultMessage>(history.back());
  EXPECT_EQ(content_text(results.results[0].content),
            std::string("aborted g1\n") + kStoppedNotUndoneNote);
  expect_one_result_per_call(history);
}

TEST_F(AgentLoopTest, AbortedReplyWithPartialCallsStillGetsResults) {
  provider_.push([](std::stop_token) {
    auto reply = tool_reply({echo("c1", "x")});
    reply.stop_reason = StopReason::kAborted;
    return reply;
  });
  AgentLoop loop(options());
  auto history = history_with_prompt("go");
  const auto end = loop.run(history, {});
  EXPECT_EQ(end.reason, RunStopReason::kAborted);
  expect_one_result_per_call(history);
  EXPECT_EQ(content_text(std::get<ToolResultMessage>(history.back()).results[0].content),
            kInterruptedBeforeRun);
}

TEST_F(AgentLoopTest, ProviderThatThrowsIsAnErrorNotACrash) {
  provider_.push([](std::stop_token) -> AssistantMessage { throw std::runtime_error("bug"); });
  AgentLoop loop(options());
  auto history = history_with_prompt("go");
  const auto end = loop.run(history, {});
  EXPECT_EQ(end.reason, RunStopReason::kError);
  EXPECT_NE(end.error_message.find("bug"), std::string::npos);
}

AssistantMessage overflow() {
  AssistantMessage failed;
  failed.stop_reason = StopReason::kError;
  failed.error_kind = ErrorKind::kContextOverflow;
  failed.error_message = "prompt is too long";
  return failed;
}

// A compaction that replaces all but the last message by "[summary]".
HistoryCompaction summary_of_all_but_last(const std::vector<Message>& history) {
  return {history.size() - 1, UserMessage{text_content("[summary]")}, "[summary]"};
}

TEST_F(AgentLoopTest, BeforeRequestMayCompactTheHistoryTheProviderSees) {
  provider_.push(tool_reply({echo("c1", "a")}));
  provider_.push(text_reply("done"));
  auto options = this->options();
  int calls = 0;
  options.before_request = [&calls](const std::vector<Message>& history, std::stop_token) {
    return ++calls == 2 ? std::optional(summary_of_all_but_last(history)) : std::nullopt;
  };
  AgentLoop loop(options);
  auto history = history_with_prompt("go");
  ASSERT_EQ(loop.run(history, {}).reason, RunStopReason::kDone);
  EXPECT_EQ(calls, 2);
  const auto requests = provider_.requests();
  ASSERT_EQ(requests.size(), 2u);
  ASSERT_EQ(requests[1].size(), 2u);  // the summary, then the tool results
  EXPECT_EQ(content_text(std::get<UserMessage>(requests[1][0]).content), "[summary]");
  EXPECT_EQ(history.size(), 3u) << "the loop applied it to the history it was given";
  // Announced between the turn's start and its request, with the messages kept verbatim.
  const auto names = events_.events();
  const auto compacted = std::find(names.begin(), names.end(), "compacted:1");
  ASSERT_NE(compacted, names.end());
  EXPECT_EQ(*(compacted - 1), "turn_start:2");
}

TEST_F(AgentLoopTest, SteeringMessagesJoinTheHistoryAtTheTurnBoundary) {
  provider_.push(tool_reply({echo("c1", "a")}));
  provider_.push(tool_reply({echo("c2", "b")}));
  provider_.push(text_reply("done"));
  auto options = this->options();
  std::vector<std::vector<UserMessage>> queued{{UserMessage{text_content("use tabs")}}, {}};
  int boundaries = 0;
  options.take_steering = [&] {
    return boundaries < static_cast<int>(queued.size()) ? std::move(queued[boundaries++])
                                                        : std::vector<UserMessage>{};
  };
  AgentLoop loop(options);
  auto history = history_with_prompt("go");
  ASSERT_EQ(loop.run(history, {}).reason, RunStopReason::kDone);

  // Asked after each batch only: never after the final answer (that message goes to a new run).
  EXPECT_EQ(boundaries, 2);
  const auto requests = provider_.requests();
  ASSERT_EQ(requests.size(), 3u);
  ASSERT_EQ(requests[1].size(), 4u);  // prompt, call, result, steering
  EXPECT_EQ(content_text(std::get<UserMessage>(requests[1][3]).content), "use tabs");
  expect_one_result_per_call(history);
  const auto& names = events_.events();
  const auto steering = std::find(names.begin(), names.end(), "user_message");
  ASSERT_NE(steering, names.end());
  EXPECT_EQ(*(steering - 1), "turn_end:1");
  EXPECT_EQ(*(steering + 1), "turn_start:2");
}

TEST_F(AgentLoopTest, PendingNoticesJoinTheHistoryAsOneMessageAtTheNextTurnBoundary) {
  provider_.push(tool_reply({echo("c1", "a")}));
  provider_.push(text_reply("done"));
  auto options = this->options();
  PendingNotices notices;
  options.notices = &notices;
  notices.post("job-1", "[nib] job 1 finished");
  notices.post("job-2", "[nib] job 2 finished");
  notices.post("job-3", "withdrawn before the boundary");
  notices.withdraw("job-3");
  AgentLoop loop(options);
  auto history = history_with_prompt("go");
  ASSERT_EQ(loop.run(history, {}).reason, RunStopReason::kDone);

  const auto requests = provider_.requests();
  ASSERT_EQ(requests.size(), 2u);
  ASSERT_EQ(requests[1].size(), 4u);  // prompt, call, result, the notices
  const auto& message = std::get<UserMessage>(requests[1][3]);
  ASSERT_EQ(message.content.size(), 2u);
  EXPECT_EQ(content_text(message.content), "[nib] job 1 finished\n[nib] job 2 finished");
  EXPECT_TRUE(notices.empty()) << "taken, so never told twice";
  expect_one_result_per_call(history);
  const auto& names = events_.events();
  const auto notice = std::find(names.begin(), names.end(), "user_message");
  ASSERT_NE(notice, names.end());
  EXPECT_EQ(*(notice - 1), "turn_end:1");
  EXPECT_EQ(*(notice + 1), "turn_start:2");
}

TEST_F(AgentLoopTest, ContextOverflowIsCompactedAndRetriedOnce) {
  provider_.push(overflow());
  provider_.push(text_reply("fits now"));
  auto options = this->options();
  int compactions = 0;
  options.on_context_overflow = [&compactions](const std::vector<Message>& history,
                                               std::stop_token) {
    ++compactions;
    return std::optional(summary_of_all_but_last(history));
  };
  AgentLoop loop(options);
  auto history = history_with_prompt("go");
  const auto end = loop.run(history, {});
  EXPECT_EQ(end.reason, RunStopReason::kDone);
  EXPECT_EQ(compactions, 1);
  // The summary (of nothing older: the prompt is the last message), the prompt and the reply;
  // the failed request left no message behind.
  ASSERT_EQ(history.size(), 3u);
  EXPECT_EQ(content_text(std::get<UserMessage>(history.front()).content), "[summary]");
  EXPECT_EQ(assistant_text(std::get<AssistantMessage>(history.back())), "fits now");
}

TEST_F(AgentLoopTest, ASecondOverflowOrNothingToCompactEndsTheRun) {
  provider_.push(overflow());
  provider_.push(overflow());
  auto options = this->options();
  int compactions = 0;
  options.on_context_overflow = [&compactions](const std::vector<Message>& history,
                                               std::stop_token) {
    ++compactions;
    return std::optional(summary_of_all_but_last(history));
  };
  AgentLoop loop(options);
  auto history = history_with_prompt("go");
  EXPECT_EQ(loop.run(history, {}).reason, RunStopReason::kError);
  EXPECT_EQ(compactions, 1);

  provider_.push(overflow());
  options.on_context_overflow = [](const std::vector<Message>&, std::stop_token) {
    return std::optional<HistoryCompaction>();
  };
  AgentLoop refusing(options);
  auto again = history_with_prompt("go");
  const auto end = refusing.run(again, {});
  EXPECT_EQ(end.reason, RunStopReason::kError);
  EXPECT_EQ(end.error_message, "prompt is too long");
}

TEST_F(AgentLoopTest, BeforeDoneMaySendTheModelOnWithAMessage) {
  provider_.push(text_reply("finished?"));
  provider_.push(text_reply("now finished"));
  auto options = this->options();
  std::vector<int> continued_seen;
  options.before_done = [&](const std::vector<Message>&, int continued, std::stop_token) {
    continued_seen.push_back(continued);
    return continued == 0 ? std::optional(UserMessage{text_content("run the tests first")})
                          : std::nullopt;
  };
  AgentLoop loop(options);
  auto history = history_with_prompt("go");
  const auto end = loop.run(history, {});

  EXPECT_EQ(end.reason, RunStopReason::kDone);
  EXPECT_EQ(end.turns, 2);
  EXPECT_EQ(continued_seen, (std::vector<int>{0, 1}));
  ASSERT_EQ(provider_.requests().size(), 2u);
  ASSERT_EQ(provider_.requests()[1].size(), 3u);  // prompt, answer, the message
  EXPECT_EQ(content_text(std::get<UserMessage>(provider_.requests()[1][2]).content),
            "run the tests first");
  const auto& names = events_.events();
  const auto message = std::find(names.begin(), names.end(), "user_message");
  ASSERT_NE(message, names.end());
  EXPECT_EQ(*(message - 1), "turn_end:1");
  EXPECT_EQ(*(message + 1), "turn_start:2");
}

TEST_F(AgentLoopTest, BeforeDoneCannotGoPastTheTurnLimit) {
  provider_.push(text_reply("finished"));
  auto options = this->options();
  options.max_turns = 1;
  int asked = 0;
  options.before_done = [&](const std::vector<Message>&, int, std::stop_token) {
    ++asked;
    return std::optional(UserMessage{text_content("again")});
  };
  AgentLoop loop(options);
  auto history = history_with_prompt("go");
  EXPECT_EQ(loop.run(history, {}).reason, RunStopReason::kDone);
  EXPECT_EQ(asked, 0);
  EXPECT_EQ(provider_.requests().size(), 1u);
}

}  // namespace
}  // namespace nib::core
