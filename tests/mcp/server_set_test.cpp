#include "mcp/server_set.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "mcp/stdio_fixture.hpp"
#include "support/registry_of.hpp"

namespace nib::mcp {
namespace {

using namespace std::chrono_literals;

std::string text_of(const core::ToolOutput& output) {
  if (!output.content) return output.output;
  std::string text;
  for (const core::ContentBlock& block : *output.content) {
    if (const auto* part = std::get_if<core::TextBlock>(&block)) text += part->text;
  }
  return text;
}

ServerSetOptions options_for(core::ToolRegistry& registry,
                             ConnectionOptions connection = testing::fake_connection_options()) {
  return {&registry,
          std::move(connection),
          [](const std::string&) -> std::optional<std::string> { return std::nullopt; },
          {}};
}

TEST(ServerSet, ToolsJoinTheRegistryOnceTheServerIsReady) {
  auto registry = nib::testing::registry_of({});
  ServerSet servers({testing::fake_server("fake", "normal")}, {}, options_for(*registry));
  EXPECT_NE(registry->note().find("fake"), std::string::npos);  // named even before start
  servers.start();
  servers.wait_settled({});
  const auto statuses = servers.statuses();
  ASSERT_EQ(statuses.size(), 1u);
  EXPECT_EQ(statuses[0].state, ServerState::kReady);
  // bad_schema is left out, and said so; the other four are registered.
  EXPECT_EQ(statuses[0].tools, (std::vector<std::string>{"echo", "slow", "crash", "big"}));
  EXPECT_NE(statuses[0].detail.find("tool bad_schema left out"), std::string::npos);
  // Offered by name, whatever order they arrived in (core/tool_registry.hpp).
  EXPECT_EQ(registry->names(), (std::vector<std::string>{"mcp__fake__big", "mcp__fake__crash",
                                                         "mcp__fake__echo", "mcp__fake__slow"}));
  EXPECT_EQ(registry->note(), "");
  const core::RegisteredTool* echo = registry->find("mcp__fake__echo");
  EXPECT_TRUE(echo->tool->spec().concurrency_safe);
  EXPECT_FALSE(registry->find("mcp__fake__slow")->tool->spec().concurrency_safe);
  EXPECT_EQ(echo->tool->spec().description, "[MCP server fake] Echoes its text");
  EXPECT_EQ(text_of(echo->tool->execute({{"text", "hey"}}, {}, {})), "echo: hey");
}

TEST(ServerSet, AFailedServerIsNamedWithItsStderrAndNotApprovedOnesAreShown) {
  auto registry = nib::testing::registry_of({});
  ServerStatus blocked{.name = "repo",
                       .state = ServerState::kNotApproved,
                       .detail = "approve it",
                       .origin = ".mcp.json"};
  ServerSet servers({testing::fake_server("broken", "exit")}, {blocked}, options_for(*registry));
  servers.start();
  servers.wait_settled({});
  const auto statuses = servers.statuses();
  ASSERT_EQ(statuses.size(), 2u);
  EXPECT_EQ(statuses[0].state, ServerState::kFailed);
  EXPECT_NE(statuses[0].detail.find("the server exited with status 3"), std::string::npos);
  EXPECT_NE(statuses[0].detail.find("fatal: missing configuration FOO"), std::string::npos);
  const std::string note = registry->note();
  EXPECT_NE(note.find("- broken (tools mcp__broken__*): failed (the server exited with status 3)"),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("- repo (tools mcp__repo__*): configured by the project but not approved"),
            std::string::npos);
}

TEST(ServerSet, AServerThatNeverAnswersFailsAtItsStartupTimeout) {
  auto registry = nib::testing::registry_of({});
  ServerSet servers({testing::fake_server("mute", "silent")}, {},
                    options_for(*registry, testing::fake_connection_options(300ms)));
  servers.start();
  servers.wait_settled({});
  const ServerStatus status = servers.statuses()[0];
  EXPECT_EQ(status.state, ServerState::kFailed);
  EXPECT_NE(status.detail.find("no answer within 300 ms to initialize"), std::string::npos)
      << status.detail;
}

TEST(ServerSet, AnUnsetVariableFailsTheServerNamingIt) {
  auto registry = nib::testing::registry_of({});
  ServerConfig config = testing::fake_server("vars", "normal");
  config.args.push_back("${NOT_SET_ANYWHERE}");
  ServerSet servers({config}, {}, options_for(*registry));
  servers.start();
  const ServerStatus status = servers.statuses()[0];
  EXPECT_EQ(status.state, ServerState::kFailed);
  EXPECT_EQ(status.detail,
            "test.json: the environment variable NOT_SET_ANYWHERE is not set (write "
            "${NOT_SET_ANYWHERE:-default} for a default)");
}

TEST(ServerSet, ACrashedServerGivesAClearErrorAndIsRestartedOnceAtTheNextCall) {
  auto registry = nib::testing::registry_of({});
  ServerSet servers({testing::fake_server("fake", "normal")}, {}, options_for(*registry));
  servers.start();
  servers.wait_settled({});
  const core::ToolPtr crash = registry->find("mcp__fake__crash")->tool;
  const core::ToolPtr echo = registry->find("mcp__fake__echo")->tool;

  const core::ToolOutput crashed = crash->execute(nlohmann::json::object(), {}, {});
  EXPECT_TRUE(crashed.is_error);
  EXPECT_NE(crashed.output.find("the MCP server fake stopped before it answered: the server "
                                "exited with status 1"),
            std::string::npos)
      << crashed.output;
  EXPECT_NE(crashed.output.find("crashing now"), std::string::npos);
  EXPECT_NE(crashed.output.find("It will be restarted at the next call."), std::string::npos);
  EXPECT_EQ(servers.statuses()[0].state, ServerState::kFailed);

  EXPECT_EQ(text_of(echo->execute({{"text", "again"}}, {}, {})), "echo: again");
  EXPECT_EQ(servers.statuses()[0].state, ServerState::kReady);

  EXPECT_TRUE(crash->execute(nlohmann::json::object(), {}, {}).is_error);
  const core::ToolOutput after = echo->execute({{"text", "x"}}, {}, {});
  EXPECT_TRUE(after.is_error);
  EXPECT_NE(after.output.find("the MCP server fake is not running"), std::string::npos)
      << after.output;
}

TEST(ServerSet, ACallTimeoutIsAnErrorResultThatSaysWhatToDo) {
  auto registry = nib::testing::registry_of({});
  ServerSet servers({testing::fake_server("fake", "normal")}, {},
                    options_for(*registry, testing::fake_connection_options(30s, 200ms)));
  servers.start();
  servers.wait_settled({});
  const core::ToolOutput output =
      registry->find("mcp__fake__slow")->tool->execute(nlohmann::json::object(), {}, {});
  EXPECT_TRUE(output.is_error);
  EXPECT_EQ(output.output,
            "Error: the MCP server fake gave no answer within 200 ms to tools/call (the server "
            "was asked to cancel it). Try a smaller task, or ask the user to raise the server's "
            "callTimeoutMs.");
}

TEST(ServerSet, ALongResultIsCutWithThePathOfTheWholeOne) {
  auto registry = nib::testing::registry_of({});
  ServerSet servers({testing::fake_server("fake", "normal")}, {}, options_for(*registry));
  servers.start();
  servers.wait_settled({});
  const std::string text =
      text_of(registry->find("mcp__fake__big")->tool->execute(nlohmann::json::object(), {}, {}));
  EXPECT_NE(text.find("… [50,000 more bytes; it is about 37500 tokens"), std::string::npos) << text;
  EXPECT_NE(text.find("the whole result is in /"), std::string::npos);
}

// Counts the set's change notices, so a test can wait for the one it expects.
struct ChangeWaiter {
  std::mutex mutex;
  std::condition_variable changed;
  int count = 0;
  std::function<void()> callback() {
    return [this] {
      std::lock_guard lock(mutex);
      ++count;
      changed.notify_all();
    };
  }
  // Waits until `done` holds, checking after each change.
  void wait_until(const std::function<bool()>& done) {
    std::unique_lock lock(mutex);
    while (true) {
      const int seen = count;
      lock.unlock();
      if (done()) return;
      lock.lock();
      changed.wait(lock, [&] { return count != seen; });
    }
  }
};

std::vector<std::string> prompt_names(const ServerStatus& status) {
  std::vector<std::string> names;
  for (const ServerPrompt& prompt : status.prompts) names.push_back(prompt.name);
  return names;
}

TEST(ServerSet, PromptsAreListedAcrossPagesAndAgainWhenTheServerSaysTheyChanged) {
  auto registry = nib::testing::registry_of({});
  ChangeWaiter waiter;
  ServerSetOptions options = options_for(*registry);
  options.on_change = waiter.callback();
  ServerSet servers({testing::fake_server("fake", "prompts")}, {}, std::move(options));
  servers.start();
  servers.wait_settled({});
  ServerStatus status = servers.statuses()[0];
  ASSERT_EQ(status.state, ServerState::kReady) << status.detail;
  EXPECT_EQ(prompt_names(status), (std::vector<std::string>{"greet", "picture"}));
  EXPECT_EQ(status.prompts[0].arguments.size(), 2u);
  EXPECT_TRUE(status.prompts[0].arguments[0].required);

  registry->find("mcp__fake__add_prompt")->tool->execute(nlohmann::json::object(), {}, {});
  waiter.wait_until([&] { return servers.statuses()[0].prompts.size() == 3; });
  EXPECT_EQ(prompt_names(servers.statuses()[0]),
            (std::vector<std::string>{"greet", "picture", "later"}));

  const auto greeting = servers.find("fake")->get_prompt("greet", {{"who", "Ann"}}, {});
  ASSERT_TRUE(greeting.ok()) << greeting.error();
  ASSERT_EQ(greeting.value().size(), 2u);
  EXPECT_EQ(std::get<core::TextBlock>(greeting.value()[0]).text, "Say hello to Ann");
  EXPECT_EQ(std::get<core::TextBlock>(greeting.value()[1]).text, "Hello!");
  const auto unknown = servers.find("fake")->get_prompt("nope", nlohmann::json::object(), {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error(),
            "the MCP server fake could not give the prompt nope: Unknown prompt: nope");
}

TEST(ServerSet, AServerApprovedLaterStartsAndItsNotApprovedStatusGoes) {
  auto registry = nib::testing::registry_of({});
  ServerStatus waiting{.name = "later", .state = ServerState::kNotApproved, .origin = ".mcp.json"};
  ServerSet servers({}, {waiting}, options_for(*registry));
  servers.start();
  EXPECT_NE(registry->note().find("- later (tools mcp__later__*): configured by the project"),
            std::string::npos);
  servers.start_approved(testing::fake_server("later", "normal"));
  servers.wait_settled({});
  const auto statuses = servers.statuses();
  ASSERT_EQ(statuses.size(), 1u);
  EXPECT_EQ(statuses[0].state, ServerState::kReady) << statuses[0].detail;
  EXPECT_EQ(text_of(registry->find("mcp__later__echo")->tool->execute({{"text", "hi"}}, {}, {})),
            "echo: hi");
  EXPECT_EQ(registry->note(), "");
}

}  // namespace
}  // namespace nib::mcp
