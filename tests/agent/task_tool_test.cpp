#include "agent/task_tool.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "core/agent_loop.hpp"
#include "core/slot_pool.hpp"
#include "session/session_file.hpp"
#include "support/gated_tool.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"
#include "support/tool_claims.hpp"

namespace nib::agent {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::text_reply;
using testing::tool_reply;

// Replies by conversation: each request is answered from the script of the conversation whose
// first user message it carries, so parent and subagents, running at once, each get their own.
class ConversationProvider final : public core::Provider {
 public:
  using Reply = std::function<core::AssistantMessage(std::stop_token)>;
  struct Seen {
    std::string model;
    std::string system_prompt;
    std::vector<std::string> tools;
  };

  void push(const std::string& first_prompt, core::AssistantMessage reply) {
    push(first_prompt, [reply](std::stop_token) { return reply; });
  }
  void push(const std::string& first_prompt, Reply reply) {
    const std::lock_guard lock(mutex_);
    scripts_[first_prompt].push_back(std::move(reply));
  }

  core::AssistantMessage stream(const core::ProviderRequest& request, std::stop_token stop,
                                const core::DeltaSink& /*on_delta*/) override {
    const auto& first = std::get<core::UserMessage>(request.messages->front());
    const std::string prompt = core::content_text(first.content, "");
    Reply reply;
    {
      const std::lock_guard lock(mutex_);
      Seen seen{request.model.id, request.system_prompt, {}};
      for (const auto& spec : request.tools) seen.tools.push_back(spec.name);
      seen_[prompt].push_back(std::move(seen));
      auto& script = scripts_[prompt];
      if (script.empty()) {
        core::AssistantMessage failed;
        failed.stop_reason = core::StopReason::kError;
        failed.error_message = "no scripted reply for \"" + prompt + "\"";
        return failed;
      }
      reply = std::move(script.front());
      script.pop_front();
    }
    return reply(stop);
  }

  std::vector<Seen> seen(const std::string& first_prompt) {
    const std::lock_guard lock(mutex_);
    return seen_[first_prompt];
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::deque<Reply>> scripts_;
  std::map<std::string, std::vector<Seen>> seen_;
};

core::ToolCall task_call(std::string id, std::string prompt, std::string agent = "") {
  nlohmann::json args = {{"description", "look around"}, {"prompt", std::move(prompt)}};
  if (!agent.empty()) args["agent"] = std::move(agent);
  return core::ToolCall{std::move(id), "task", args.dump()};
}

core::ToolCall echo_call(std::string id, std::string name, std::string text = "seen") {
  return core::ToolCall{std::move(id), std::move(name), nlohmann::json{{"text", text}}.dump()};
}

extensions::AgentDefinition custom_agent(std::string name, std::vector<std::string> tools) {
  extensions::AgentDefinition definition;
  definition.name = std::move(name);
  definition.description = "a test agent";
  definition.system_prompt = "You are " + definition.name + ".";
  definition.tools = std::move(tools);
  definition.origin = extensions::Origin::kProjectNib;
  return definition;
}

class TaskToolTest : public ::testing::Test {
 protected:
  TaskToolTest() : gated_(std::make_shared<testing::GatedTool>("bash", false)) {
    std::vector<extensions::AgentDefinition> agents = extensions::builtin_agents();
    agents.push_back(custom_agent("lead", {"task", "read"}));
    agents.push_back(custom_agent("shell", {"bash"}));
    std::sort(agents.begin(), agents.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    environment_->agents =
        std::make_shared<extensions::AgentCatalog>(extensions::AgentCatalog{std::move(agents), {}});
    environment_->make_tools = [gated = gated_] {
      return std::vector<core::ToolPtr>{testing::make_echo_tool("read"),
                                        testing::make_echo_tool("grep"),
                                        testing::make_echo_tool("write", false), gated};
    };
    environment_->system_prompt = [](const extensions::AgentDefinition& definition,
                                     const std::vector<core::ToolSpec>&) {
      return "prompt of " + definition.name;
    };
    environment_->inherited.provider = &provider_;
    environment_->inherited.model.id = "parent-model";
    environment_->inherited.provider_name = "test";
    environment_->inherited.cwd = dir_.path();
  }

  core::ToolOutput call_directly(const nlohmann::json& args, int depth = 0,
                                 std::optional<std::vector<std::string>> allowed = std::nullopt,
                                 std::stop_token stop = {}) {
    const core::ToolPtr tool = make_task_tool(environment_, depth, std::move(allowed));
    core::ToolContext context{"call_task", dir_.path(), [this](core::Event event) {
                                const std::lock_guard lock(reported_mutex_);
                                reported_.push_back(std::move(event));
                              }};
    return tool->execute(args, stop, context);
  }

  // Runs the parent loop with the task tool, answering `parent_prompt` from the provider.
  core::RunEndEvent run_parent(const std::string& parent_prompt, std::stop_token stop = {}) {
    auto registry = core::ToolRegistry::create({make_task_tool(environment_, 0, std::nullopt)}, {});
    EXPECT_TRUE(registry.ok()) << registry.error();
    registry_ = std::move(registry.value());
    core::LoopOptions loop;
    loop.provider = &provider_;
    loop.model.id = "parent-model";
    loop.tools = registry_.get();
    loop.cwd = dir_.path();
    loop.slots = &slots_;
    environment_->inherited.slots = &slots_;
    loop.on_event = [this](const core::Event& event) {
      events_.push_back(event);
      threads_.push_back(std::this_thread::get_id());
    };
    history_ = {core::UserMessage{core::text_content(parent_prompt)}};
    return core::AgentLoop(loop).run(history_, stop);
  }

  std::vector<core::SubagentEvent> subagent_events() const {
    std::vector<core::SubagentEvent> out;
    for (const auto& event : events_) {
      if (const auto* nested = std::get_if<core::SubagentEvent>(&event)) out.push_back(*nested);
    }
    return out;
  }

  const core::ToolResult& parent_result(std::size_t index) const {
    for (const auto& message : history_) {
      if (const auto* results = std::get_if<core::ToolResultMessage>(&message)) {
        return results->results.at(index);
      }
    }
    throw std::runtime_error("no results");
  }

  testing::TempDir dir_;
  ConversationProvider provider_;
  std::shared_ptr<testing::GatedTool> gated_;
  std::shared_ptr<SubagentEnvironment> environment_ = std::make_shared<SubagentEnvironment>();
  core::SlotPool slots_{5};
  std::unique_ptr<core::ToolRegistry> registry_;
  std::vector<core::Message> history_;
  std::vector<core::Event> events_;
  std::vector<std::thread::id> threads_;
  std::mutex reported_mutex_;
  std::vector<core::Event> reported_;
};

TEST_F(TaskToolTest, ReturnsTheSubagentsAnswerWithItsFooter) {
  provider_.push("where is main?", text_reply("main is in src/main.cpp"));
  const core::ToolOutput output =
      call_directly({{"description", "d"}, {"prompt", "where is main?"}});
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_THAT(output.output, StartsWith("main is in src/main.cpp\n\n[general-"));
  EXPECT_THAT(output.output, HasSubstr("(general) · 1 turn · 0 tool calls · "));
  const auto seen = provider_.seen("where is main?");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].model, "parent-model");
  EXPECT_EQ(seen[0].system_prompt, "prompt of general");
  EXPECT_THAT(seen[0].tools, ElementsAre("read", "grep", "write", "bash"))
      << "general: every tool but task";
}

TEST_F(TaskToolTest, ExploreGetsOnlyTheToolsThatChangeNothing) {
  provider_.push("look", text_reply("looked"));
  call_directly({{"description", "d"}, {"prompt", "look"}, {"agent", "explore"}});
  const auto seen = provider_.seen("look");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_THAT(seen[0].tools, ElementsAre("read", "grep"));
}

TEST_F(TaskToolTest, ADefinitionsModelIsUsedWhenTheProviderHasIt) {
  auto agents = *environment_->agents;
  agents.agents.push_back(custom_agent("fast", {"read"}));
  agents.agents.back().model = "haiku";
  environment_->agents = std::make_shared<extensions::AgentCatalog>(std::move(agents));
  environment_->resolve_model = [](const std::string& provider,
                                   const std::string& name) -> std::optional<core::ModelInfo> {
    if (provider == "test" && name == "haiku") return core::ModelInfo{.id = "haiku-9"};
    return std::nullopt;
  };
  provider_.push("quick", text_reply("done"));
  call_directly({{"description", "d"}, {"prompt", "quick"}, {"agent", "fast"}});
  ASSERT_EQ(provider_.seen("quick").size(), 1u);
  EXPECT_EQ(provider_.seen("quick")[0].model, "haiku-9");
}

TEST_F(TaskToolTest, AnUnknownAgentIsRefusedWithTheClosestName) {
  const core::ToolOutput output =
      call_directly({{"description", "d"}, {"prompt", "p"}, {"agent", "explor"}});
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("there is no agent \"explor\" (did you mean \"explore\"?)"));
  EXPECT_THAT(output.output, HasSubstr("explore, general, lead, shell"));
}

TEST_F(TaskToolTest, AnAgentOutsideTheAllowedListIsRefused) {
  const core::ToolOutput output = call_directly(
      {{"description", "d"}, {"prompt", "p"}, {"agent", "general"}}, 0, {{"explore"}});
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("the agents you may start: explore."));
}

TEST_F(TaskToolTest, TheDepthLimitIsSaidWhenReached) {
  const core::ToolOutput output =
      call_directly({{"description", "d"}, {"prompt", "p"}}, kDefaultMaxSubagentDepth);
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("subagents may nest at most 2 levels deep, and this call "
                                       "would start level 3"));
}

TEST_F(TaskToolTest, ASubagentHasNoTaskToolUnlessItsDefinitionGrantsIt) {
  provider_.push("plain", text_reply("ok"));
  provider_.push("leading", text_reply("ok"));
  call_directly({{"description", "d"}, {"prompt", "plain"}});
  call_directly({{"description", "d"}, {"prompt", "leading"}, {"agent", "lead"}});
  EXPECT_THAT(provider_.seen("plain")[0].tools, ::testing::Not(::testing::Contains("task")));
  EXPECT_THAT(provider_.seen("leading")[0].tools, ElementsAre("read", "task"));
}

TEST_F(TaskToolTest, SubagentEventsReachTheParentOnItsThreadWithinTheTaskCall) {
  provider_.push("parent", tool_reply({task_call("t1", "sub", "lead")}));
  provider_.push("sub",
                 tool_reply({echo_call("r1", "read"), task_call("t2", "subsub", "explore")}));
  provider_.push("subsub", tool_reply({echo_call("r2", "grep")}));
  provider_.push("subsub", text_reply("deep answer"));
  provider_.push("sub", text_reply("sub answer"));
  provider_.push("parent", text_reply("all done"));
  const core::RunEndEvent end = run_parent("parent");
  EXPECT_EQ(end.reason, core::RunStopReason::kDone) << end.error_message;
  EXPECT_THAT(parent_result(0).content.size(), 1u);
  EXPECT_THAT(core::content_text(parent_result(0).content, ""), StartsWith("sub answer\n\n[lead-"));

  for (const auto& thread : threads_) EXPECT_EQ(thread, std::this_thread::get_id());
  // Between the task's tool_running and its tool_settled, and only there.
  std::size_t running = 0, settled = 0;
  for (std::size_t i = 0; i < events_.size(); ++i) {
    if (const auto* r = std::get_if<core::ToolRunningEvent>(&events_[i]); r && r->id == "t1")
      running = i;
    if (const auto* s = std::get_if<core::ToolSettledEvent>(&events_[i]);
        s && s->outcome.result.tool_call_id == "t1")
      settled = i;
  }
  std::vector<std::string> deep_tools;
  for (std::size_t i = 0; i < events_.size(); ++i) {
    const auto* nested = std::get_if<core::SubagentEvent>(&events_[i]);
    if (nested == nullptr) continue;
    EXPECT_GT(i, running);
    EXPECT_LT(i, settled);
    EXPECT_EQ(nested->tool_call_id, "t1");
    EXPECT_EQ(nested->agent_name, "lead");
    const core::NestedView view = core::innermost(*nested);
    if (const auto* start = std::get_if<core::ToolStartEvent>(view.event)) {
      deep_tools.push_back(std::to_string(view.depth) + ":" + view.from->tool_call_id + ":" +
                           start->name);
    }
  }
  EXPECT_THAT(deep_tools, ElementsAre("1:t1:read", "1:t1:task", "2:t2:grep"));
}

TEST_F(TaskToolTest, AFailedSubagentGivesAnErrorWithItsLastErrorAndPartialAnswer) {
  core::AssistantMessage first = tool_reply({echo_call("r1", "read")});
  first.blocks.insert(first.blocks.begin(), core::TextBlock{"found half of it"});
  provider_.push("fragile", first);
  core::AssistantMessage failed;
  failed.stop_reason = core::StopReason::kError;
  failed.error_message = "the service answered 500";
  provider_.push("fragile", failed);
  const core::ToolOutput output = call_directly({{"description", "d"}, {"prompt", "fragile"}});
  EXPECT_TRUE(output.is_error);
  EXPECT_THAT(output.output, HasSubstr("failed: the service answered 500.\nIts answer so far:\n"
                                       "found half of it\n"));
  EXPECT_THAT(output.output, HasSubstr("2 turns · 1 tool call"));
}

TEST_F(TaskToolTest, AnAbortStopsTheSubagentAndEveryCallOfEveryLevelGetsAResult) {
  environment_->transcript_dir = dir_.path() / "subagents";
  provider_.push("parent", tool_reply({task_call("t1", "long", "shell")}));
  core::AssistantMessage working = tool_reply({core::ToolCall{"b1", "bash", R"({"id":"b1"})"},
                                               core::ToolCall{"b2", "bash", R"({"id":"b2"})"}});
  working.blocks.insert(working.blocks.begin(), core::TextBlock{"starting the build"});
  provider_.push("long", working);
  std::stop_source stop;
  std::thread aborter([&] {
    gated_->await_started("b1");
    stop.request_stop();
  });
  const core::RunEndEvent end = run_parent("parent", stop.get_token());
  aborter.join();
  EXPECT_EQ(end.reason, core::RunStopReason::kAborted);
  const core::ToolResult& result = parent_result(0);
  EXPECT_TRUE(result.is_error);
  const std::string text = core::content_text(result.content, "");
  EXPECT_THAT(text, HasSubstr("was interrupted by the user before it finished"));
  EXPECT_THAT(text, HasSubstr("Its answer so far:\nstarting the build"));

  // The subagent's own record: both of its calls have results.
  const auto loaded = session::load_session(environment_->transcript_dir / "t1.jsonl");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  const auto& messages = loaded.value().messages;
  ASSERT_EQ(messages.size(), 3u);
  const auto& results = std::get<core::ToolResultMessage>(messages[2]).results;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].is_error);
  EXPECT_EQ(core::content_text(results[1].content, ""), core::kInterruptedBeforeRun);
}

TEST_F(TaskToolTest, ParallelTasksDoNotDeadlockWhenTheirSubagentsNeedTheOnlySlot) {
  slots_.resize(1);
  std::vector<core::ToolCall> tasks;
  for (int i = 0; i < 5; ++i) {
    const std::string prompt = "part " + std::to_string(i);
    tasks.push_back(task_call("t" + std::to_string(i), prompt, "explore"));
    provider_.push(prompt, tool_reply({echo_call("r" + std::to_string(i), "read")}));
    provider_.push(prompt, text_reply("answer " + std::to_string(i)));
  }
  provider_.push("parent", tool_reply(tasks));
  provider_.push("parent", text_reply("merged"));
  const core::RunEndEvent end = run_parent("parent");
  EXPECT_EQ(end.reason, core::RunStopReason::kDone) << end.error_message;
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_THAT(core::content_text(parent_result(i).content, ""),
                StartsWith("answer " + std::to_string(i) + "\n\n[explore-"));
  }
}

// Counts the calls inside execute() at once, process-wide, and the most ever seen.
class CountingTool final : public core::Tool {
 public:
  explicit CountingTool(std::atomic<int>& active, std::atomic<int>& most)
      : core::Tool(core::ToolSpec{"read", "counts", {{"type", "object"}}, true}),
        active_(active),
        most_(most) {}
  core::ToolOutput execute(const nlohmann::json&, std::stop_token,
                           const core::ToolContext&) override {
    const int now = ++active_;
    int seen = most_.load();
    while (now > seen && !most_.compare_exchange_weak(seen, now)) {
    }
    for (int i = 0; i < 50; ++i) std::this_thread::yield();  // overlap with others, if allowed
    --active_;
    return {"counted"};
  }

 private:
  std::atomic<int>& active_;
  std::atomic<int>& most_;
};

// Counts the requests streaming at once.
class CountingProvider final : public core::Provider {
 public:
  explicit CountingProvider(core::Provider& inner) : inner_(inner) {}
  core::AssistantMessage stream(const core::ProviderRequest& request, std::stop_token stop,
                                const core::DeltaSink& on_delta) override {
    const int now = ++active_;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    for (int i = 0; i < 50; ++i) std::this_thread::yield();
    core::AssistantMessage reply = inner_.stream(request, stop, on_delta);
    --active_;
    return reply;
  }
  std::atomic<int> most{0};

 private:
  core::Provider& inner_;
  std::atomic<int> active_{0};
};

TEST_F(TaskToolTest, TenTasksWithParallelReadsAndNestedTasksCompleteWithinTheBudget) {
  std::atomic<int> active{0}, most{0};
  environment_->make_tools = [&] {
    return std::vector<core::ToolPtr>{std::make_shared<CountingTool>(active, most)};
  };
  core::SlotPool requests(4);
  CountingProvider counting(provider_);
  environment_->inherited.provider = &counting;
  environment_->inherited.requests = &requests;
  const auto reads = [](const std::string& prefix) {
    std::vector<core::ToolCall> calls;
    for (int r = 0; r < 5; ++r) calls.push_back({prefix + "-r" + std::to_string(r), "read", "{}"});
    return calls;
  };
  std::vector<core::ToolCall> tasks;
  for (int i = 0; i < 10; ++i) {
    const std::string part = "part " + std::to_string(i);
    tasks.push_back(task_call("t" + std::to_string(i), part, "lead"));
    std::vector<core::ToolCall> calls = reads(part);
    for (int j = 0; j < 3; ++j) {
      const std::string sub = part + "." + std::to_string(j);
      calls.push_back(task_call(part + "-t" + std::to_string(j), sub, "explore"));
      provider_.push(sub, tool_reply(reads(sub)));
      provider_.push(sub, text_reply("leaf " + sub));
    }
    provider_.push(part, tool_reply(calls));
    provider_.push(part, text_reply("answer " + std::to_string(i)));
  }
  provider_.push("parent", tool_reply(tasks));
  provider_.push("parent", text_reply("all parts done"));

  const core::RunEndEvent end = run_parent("parent");
  EXPECT_EQ(end.reason, core::RunStopReason::kDone) << end.error_message;
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_THAT(core::content_text(parent_result(i).content, ""),
                StartsWith("answer " + std::to_string(i) + "\n\n[lead-"));
  }
  EXPECT_LE(most.load(), 5) << "tool executions at once, across every level";
  EXPECT_GE(most.load(), 1);
  EXPECT_LE(counting.most.load(), 4) << "model requests at once";
}

TEST_F(TaskToolTest, TheSubagentsTranscriptIsASessionFileNamedAfterTheCall) {
  environment_->transcript_dir = dir_.path() / "subagents";
  provider_.push("record me", tool_reply({echo_call("r1", "read")}));
  provider_.push("record me", text_reply("recorded"));
  call_directly({{"description", "d"}, {"prompt", "record me"}});
  const auto loaded = session::load_session(environment_->transcript_dir / "call_task.jsonl");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded.value().header.model, "parent-model");
  ASSERT_EQ(loaded.value().messages.size(), 4u);
  EXPECT_EQ(core::content_text(std::get<core::UserMessage>(loaded.value().messages[0]).content, ""),
            "record me");
  EXPECT_EQ(core::assistant_text(std::get<core::AssistantMessage>(loaded.value().messages[3])),
            "recorded");
}

TEST_F(TaskToolTest, TheDescriptionListsTheAgents) {
  const core::ToolPtr tool = make_task_tool(environment_, 0, std::nullopt);
  EXPECT_THAT(tool->spec().description, HasSubstr("- explore: "));
  EXPECT_THAT(tool->spec().description, HasSubstr("- lead: a test agent"));
  EXPECT_TRUE(tool->spec().concurrency_safe);
  EXPECT_EQ(tool->spec().access, core::AccessKind::kDelegate);
  EXPECT_TRUE(testing::call_claims(*tool, {{"prompt", "p"}}, {}).empty());
}

}  // namespace
}  // namespace nib::agent
