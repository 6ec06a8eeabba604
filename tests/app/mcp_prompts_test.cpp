#include "app/mcp_prompts.hpp"

#include <gtest/gtest.h>

#include "mcp/stdio_fixture.hpp"
#include "support/registry_of.hpp"

namespace nib::app {
namespace {

using nlohmann::json;

const mcp::ServerPrompt kWeather{
    "weather", "The weather of a city", {{"city", "Name of the city", true}, {"state", "", false}}};

TEST(McpPrompts, WordsMapToTheDeclaredArgumentsInOrder) {
  EXPECT_EQ(prompt_arguments("mcp__w__weather", kWeather, "Paris").value(),
            (json{{"city", "Paris"}}));
  EXPECT_EQ(prompt_arguments("mcp__w__weather", kWeather, "\"New York\" NY").value(),
            (json{{"city", "New York"}, {"state", "NY"}}));
  EXPECT_EQ(prompt_arguments("mcp__w__simple", {"simple", "", {}}, "").value(), json::object());
}

TEST(McpPrompts, AMissingRequiredArgumentOrTooManyWordsSayWhatTheCommandTakes) {
  EXPECT_EQ(prompt_arguments("mcp__w__weather", kWeather, "").error(),
            "/mcp__w__weather needs <city> (Name of the city) (usage: /mcp__w__weather <city> "
            "[state])");
  EXPECT_EQ(prompt_arguments("mcp__w__weather", kWeather, "a b c").error(),
            "/mcp__w__weather takes at most 2 arguments, not 3 (usage: /mcp__w__weather <city> "
            "[state]; put quotes around a value with spaces)");
  EXPECT_EQ(prompt_arguments("mcp__w__simple", {"simple", "", {}}, "x").error(),
            "/mcp__w__simple takes no arguments, not 1 (usage: /mcp__w__simple; put quotes "
            "around a value with spaces)");
}

TEST(McpPrompts, ReadyServersOfferTheirPromptsAsCommands) {
  const std::vector<mcp::ServerStatus> statuses = {
      {.name = "w",
       .state = mcp::ServerState::kReady,
       .prompts = {kWeather, {"simple", "", {}}, {"has space", "", {}}}},
      {.name = "off", .state = mcp::ServerState::kFailed, .prompts = {kWeather}},
  };
  const std::vector<ui::ExtraCommand> commands = mcp_prompt_commands(statuses);
  ASSERT_EQ(commands.size(), 2u);
  EXPECT_EQ(commands[0].name, "mcp__w__weather");
  EXPECT_EQ(commands[0].argument, "<city> [state]");
  EXPECT_EQ(commands[0].help, "The weather of a city (MCP server w)");
  EXPECT_EQ(commands[1].name, "mcp__w__simple");
  EXPECT_EQ(commands[1].help, "MCP prompt (MCP server w)");
  EXPECT_TRUE(names_mcp_prompt("mcp__w__weather"));
  EXPECT_FALSE(names_mcp_prompt("review"));
}

TEST(McpPrompts, APromptOfAServerThatIsNotThereOrNotReadyIsRefusedSayingWhy) {
  EXPECT_EQ(prepare_mcp_prompt(nullptr, {"mcp__x__p", ""}).error(),
            "unknown command /mcp__x__p: no MCP server of that name (none is configured); "
            "/mcp__<server>__<prompt> uses a server's prompt");
  auto registry = nib::testing::registry_of({});
  mcp::ServerSet servers({},
                         {{.name = "repo",
                           .state = mcp::ServerState::kNotApproved,
                           .detail = "approve it with `nib mcp approve repo`"}},
                         {registry.get(), mcp::testing::fake_connection_options(), {}, {}});
  EXPECT_EQ(prepare_mcp_prompt(&servers, {"mcp__repo__p", ""}).error(),
            "/mcp__repo__p: the MCP server repo is not running: approve it with `nib mcp "
            "approve repo`");
  EXPECT_EQ(prepare_mcp_prompt(&servers, {"mcp__nope__p", ""}).error(),
            "unknown command /mcp__nope__p: no MCP server of that name (the servers are repo); "
            "/mcp__<server>__<prompt> uses a server's prompt");
}

TEST(McpPrompts, AReadyServersPromptIsFetchedAsTheTurnWithItsImages) {
  auto registry = nib::testing::registry_of({});
  mcp::ServerSet servers({mcp::testing::fake_server("fake", "prompts")}, {},
                         {registry.get(), mcp::testing::fake_connection_options(), {}, {}});
  servers.start();
  servers.wait_settled({});
  EXPECT_EQ(prepare_mcp_prompt(&servers, {"mcp__fake__nope", ""}).error(),
            "unknown command /mcp__fake__nope: the MCP server fake has no such prompt (its "
            "prompts: /mcp__fake__greet, /mcp__fake__picture)");
  EXPECT_EQ(prepare_mcp_prompt(&servers, {"mcp__fake__greet", ""}).error(),
            "/mcp__fake__greet needs <who> (Whom to greet) (usage: /mcp__fake__greet <who> "
            "[mood])");

  const auto greet = prepare_mcp_prompt(&servers, {"mcp__fake__greet", "Ann cheerful"});
  ASSERT_TRUE(greet.ok()) << greet.error();
  const auto greeting = get_mcp_prompt(greet.value(), {});
  ASSERT_TRUE(greeting.ok()) << greeting.error();
  EXPECT_EQ(greeting.value().text, "Say hello to Ann in a cheerful mood\n\nHello!");
  EXPECT_TRUE(greeting.value().media.empty());

  const auto picture =
      get_mcp_prompt(prepare_mcp_prompt(&servers, {"mcp__fake__picture", ""}).value(), {});
  ASSERT_TRUE(picture.ok()) << picture.error();
  EXPECT_EQ(picture.value().text, "Describe this picture");
  ASSERT_EQ(picture.value().media.size(), 1u);
  EXPECT_EQ(std::get<core::ImageBlock>(picture.value().media[0]).mime_type, "image/png");
}

}  // namespace
}  // namespace nib::app
