#include "app/settings.hpp"

#include <gtest/gtest.h>

#include <map>

#include "support/fake_environment.hpp"
#include "support/temp_dir.hpp"

namespace nib::app {
namespace {

using testing::TempDir;

class SettingsTest : public ::testing::Test {
 protected:
  ConfigDirectories directories() const {
    return {dir_.path() / "global", dir_.path() / "project", dir_.path() / "claude-user",
            dir_.path() / "claude-project"};
  }
  util::Result<Configuration> load() const { return load_configuration(directories()); }

  TempDir dir_;
};

TEST_F(SettingsTest, NoFilesGiveTheBuiltInProviders) {
  const auto outcome = load();
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_NE(outcome.value().find_provider("openai"), nullptr);
  EXPECT_NE(outcome.value().find_provider("anthropic"), nullptr);
  EXPECT_FALSE(outcome.value().settings.provider);
}

TEST_F(SettingsTest, ProjectSettingsWinOverGlobalOnes) {
  dir_.write("global/settings.json",
             R"({"provider": "anthropic", "model": "claude-opus-4-5", "thinking": "low"})");
  dir_.write("project/settings.json",
             R"({"thinking": "high", "retry": {"maxRetries": 2, "baseDelayMs": 250}})");
  const auto outcome = load();
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  const Settings& settings = outcome.value().settings;
  EXPECT_EQ(settings.provider, "anthropic");
  EXPECT_EQ(settings.model, "claude-opus-4-5");
  EXPECT_EQ(settings.thinking, core::ThinkingLevel::kHigh);
  EXPECT_EQ(settings.max_retries, 2);
  EXPECT_EQ(settings.retry_base_delay_ms, 250);
}

TEST_F(SettingsTest, TurnLimitAndConcurrencyBudget) {
  dir_.write("project/settings.json",
             R"({"maxTurns": 40, "concurrency": {"tools": 8, "requests": 2, "subagents": 3},
                 "subagents": {"maxDepth": 1}})");
  const auto outcome = load();
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  const Settings& settings = outcome.value().settings;
  EXPECT_EQ(settings.max_turns, 40);
  EXPECT_EQ(settings.concurrent_tools, 8);
  EXPECT_EQ(settings.concurrent_requests, 2);
  EXPECT_EQ(settings.concurrent_subagents, 3);
  EXPECT_EQ(settings.subagent_max_depth, 1);
  dir_.write("project/settings.json", R"({"concurrency": {"tools": 0}})");
  EXPECT_NE(load().error().find("concurrency/tools"), std::string::npos) << load().error();
}

TEST_F(SettingsTest, ModelsJsonAddsProvidersAndExtendsBuiltInOnes) {
  dir_.write("global/models.json", R"({"providers": {
    "ollama": {"api": "openai-chat", "baseUrl": "http://localhost:11434/v1",
               "defaultModel": "qwen3:8b",
               "models": [{"id": "qwen3:8b", "contextWindow": 40960, "vision": false,
                           "reasoning": true, "cost": {"input": 0.1, "output": 0.2}}]},
    "openai": {"models": [{"id": "gpt-next", "contextWindow": 1000000}]}}})");
  dir_.write("project/models.json", R"({"providers": {
    "ollama": {"models": [{"id": "qwen3:8b", "contextWindow": 8192}]}}})");
  const auto outcome = load();
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  const auto* ollama = outcome.value().find_provider("ollama");
  ASSERT_NE(ollama, nullptr);
  EXPECT_EQ(ollama->api, provider::Api::kOpenAIChat);
  EXPECT_EQ(ollama->base_url, "http://localhost:11434/v1");
  ASSERT_EQ(ollama->models.size(), 1u);
  EXPECT_EQ(ollama->models[0].context_window, 8192) << "the project's entry replaces the model";
  const auto* openai = outcome.value().find_provider("openai");
  ASSERT_NE(openai, nullptr);
  EXPECT_NE(openai->find("gpt-next"), nullptr);
  EXPECT_NE(openai->find("gpt-5"), nullptr);
  EXPECT_EQ(openai->base_url, "https://api.openai.com/v1");
}

TEST_F(SettingsTest, InvalidJsonNamesTheFileAndThePlace) {
  dir_.write("global/settings.json", "{\"provider\": \"openai\",\n  \"model\": }");
  const auto outcome = load();
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("global/settings.json: not valid JSON"), std::string::npos)
      << outcome.error();
  EXPECT_NE(outcome.error().find("line 2"), std::string::npos) << outcome.error();
}

TEST_F(SettingsTest, AWrongFieldNamesTheFileTheFieldAndTheProblem) {
  dir_.write("project/models.json", R"({"providers": {"ollama": {
    "baseUrl": "http://localhost:11434/v1", "models": [{"id": "m", "contextWindow": "big"}]}}})");
  const auto outcome = load();
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("project/models.json: /providers/ollama/models/0/contextWindow: "),
            std::string::npos)
      << outcome.error();
  EXPECT_NE(outcome.error().find("integer"), std::string::npos) << outcome.error();
}

TEST_F(SettingsTest, AMisspelledSettingIsAnError) {
  dir_.write("global/settings.json", R"({"modle": "gpt-5"})");
  const auto outcome = load();
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("settings.json"), std::string::npos) << outcome.error();
  EXPECT_NE(outcome.error().find("modle"), std::string::npos) << outcome.error();
}

TEST_F(SettingsTest, AnUnknownThinkingLevelIsAnError) {
  dir_.write("global/settings.json", R"({"thinking": "extreme"})");
  const auto outcome = load();
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("/thinking"), std::string::npos) << outcome.error();
}

TEST_F(SettingsTest, WebSearchIsABooleanTheProjectMayTurnOff) {
  dir_.write("global/settings.json", R"({"webSearch": true})");
  auto outcome = load();
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().settings.web_search, true);
  dir_.write("project/settings.json", R"({"webSearch": false})");
  outcome = load();
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().settings.web_search, false);
  dir_.write("project/settings.json", R"({"webSearch": "yes"})");
  outcome = load();
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("/webSearch"), std::string::npos) << outcome.error();
}

TEST_F(SettingsTest, EnvListsOfBothFilesAddUp) {
  dir_.write("global/settings.json",
             R"({"env": {"withhold": ["GITHUB_TOKEN"], "passThrough": ["OPENAI_API_KEY"]}})");
  dir_.write("project/settings.json", R"({"env": {"withhold": ["NPM_TOKEN"]}})");
  const auto outcome = load();
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  const Settings& settings = outcome.value().settings;
  EXPECT_EQ(settings.env_withhold, (std::vector<std::string>{"GITHUB_TOKEN", "NPM_TOKEN"}));
  EXPECT_EQ(settings.env_pass_through, (std::vector<std::string>{"OPENAI_API_KEY"}));
}

TEST_F(SettingsTest, AnEnvEntryThatIsNoVariableNameIsAnError) {
  dir_.write("project/settings.json", R"({"env": {"withhold": ["GOOD", "NOT=A NAME"]}})");
  const auto outcome = load();
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("project/settings.json: /env/withhold/1: "), std::string::npos)
      << outcome.error();
}

TEST_F(SettingsTest, AMisspelledEnvListIsAnError) {
  dir_.write("global/settings.json", R"({"env": {"passthrough": ["X"]}})");
  const auto outcome = load();
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("passthrough"), std::string::npos) << outcome.error();
}

TEST_F(SettingsTest, ANewProviderNeedsABaseUrl) {
  dir_.write("global/models.json", R"({"providers": {"mine": {"models": [{"id": "m"}]}}})");
  const auto outcome = load();
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("\"mine\""), std::string::npos) << outcome.error();
  EXPECT_NE(outcome.error().find("baseUrl"), std::string::npos) << outcome.error();
}

TEST_F(SettingsTest, EverySettingsFileIsASourceWeakestFirst) {
  dir_.write("project/settings.local.json", R"j({"permissions": {"allow": ["Bash(ls)"]}})j");
  dir_.write("global/settings.json", R"({"hooks": {}})");
  dir_.write("claude-user/settings.json", R"({"theme": "dark", "permissions": {}})");
  dir_.write("claude-project/settings.local.json", R"({"enabledPlugins": {}})");
  dir_.write("project/settings.json", R"({"sandbox": {}, "mcpServers": {}})");
  const auto outcome = load();
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  std::vector<std::string> files;
  for (const SettingsSource& source : outcome.value().sources) {
    files.push_back(source.file.lexically_relative(dir_.path()).string());
  }
  EXPECT_EQ(files, (std::vector<std::string>{
                       "claude-user/settings.json", "global/settings.json", "project/settings.json",
                       "claude-project/settings.local.json", "project/settings.local.json"}));
  const SettingsSource& local = outcome.value().sources.back();
  EXPECT_EQ(local.scope, SettingsSource::Scope::kLocal);
  EXPECT_FALSE(local.claude);
  EXPECT_EQ(local.document["permissions"]["allow"][0], "Bash(ls)");
  EXPECT_TRUE(outcome.value().sources.front().claude);
}

TEST_F(SettingsTest, ClaudeCodeSettingsMustBeAnObject) {
  dir_.write("claude-project/settings.json", "[1]");
  const auto outcome = load();
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("claude-project/settings.json"), std::string::npos);
}

TEST_F(SettingsTest, LocalSettingsAreCheckedLikeTheOthers) {
  dir_.write("project/settings.local.json", R"({"maxTurn": 3})");
  const auto outcome = load();
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("settings.local.json"), std::string::npos);
}

// The places of `environment`, with `account` as the password database's home.
util::UserPlaces config_test_places(std::map<std::string, std::string> environment,
                                    std::filesystem::path account = {}) {
  return util::user_places(testing::fake_environment(std::move(environment)),
                           [account] { return account; });
}

TEST(ConfigDirectoriesTest, HonoursXdgConfigHomeThenHome) {
  EXPECT_EQ(
      config_directories(config_test_places({{"XDG_CONFIG_HOME", "/x"}, {"HOME", "/h"}}), "/w")
          .global,
      "/x/nib");
  EXPECT_EQ(config_directories(config_test_places({{"HOME", "/h"}}), "/w").global,
            "/h/.config/nib");
  EXPECT_EQ(config_directories(config_test_places({}), "/w").project, "/w/.nib");
  EXPECT_EQ(config_directories(config_test_places({{"HOME", "/h"}}), "/w").claude_user,
            "/h/.claude");
  EXPECT_EQ(config_directories(config_test_places({}), "/w").claude_project, "/w/.claude");
}

TEST(ConfigDirectoriesTest, WithoutHomeTheUsersFilesAreInThePasswordDatabasesHome) {
  const ConfigDirectories directories =
      config_directories(config_test_places({{"HOME", "relative"}}, "/home/acct"), "/w");
  EXPECT_EQ(directories.global, "/home/acct/.config/nib");
  EXPECT_EQ(directories.claude_user, "/home/acct/.claude");
  const ConfigDirectories homeless = config_directories(config_test_places({}), "/w");
  EXPECT_EQ(homeless.global, "");
  EXPECT_EQ(homeless.claude_user, "");
}

}  // namespace
}  // namespace nib::app
