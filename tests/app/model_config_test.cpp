#include "app/model_config.hpp"

#include <gtest/gtest.h>

#include <map>

#include "support/fake_environment.hpp"

namespace nib::app {
namespace {

Configuration builtin() {
  Configuration configuration;
  configuration.providers = provider::builtin_providers();
  return configuration;
}

util::Result<ModelConfig> resolve(const CliOptions& options, std::map<std::string, std::string> env,
                                  const Configuration& configuration = builtin()) {
  return resolve_model_config(options, testing::fake_environment(std::move(env)), configuration);
}

TEST(ModelConfigTest, NothingConfiguredExplainsHowInTwoLines) {
  const auto outcome = resolve({}, {});
  EXPECT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("OPENAI_API_KEY"), std::string::npos);
  EXPECT_NE(outcome.error().find("ANTHROPIC_API_KEY"), std::string::npos);
  EXPECT_NE(outcome.error().find("--base-url"), std::string::npos);
  EXPECT_LE(std::count(outcome.error().begin(), outcome.error().end(), '\n'), 1);
}

TEST(ModelConfigTest, OpenAIKeyGivesTheDefaultModelOverTheResponsesApi) {
  const auto outcome = resolve({}, {{"OPENAI_API_KEY", "sk-test"}});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  const ModelConfig& config = outcome.value();
  EXPECT_EQ(config.provider, "openai");
  EXPECT_EQ(config.api, provider::Api::kOpenAIResponses);
  EXPECT_EQ(config.base_url, "https://api.openai.com/v1");
  EXPECT_EQ(config.model.id, "gpt-5.4");
  EXPECT_EQ(config.api_key, "sk-test");
  EXPECT_TRUE(config.model.reasoning);
  EXPECT_EQ(config.model.context_window, 1000000);
  ASSERT_TRUE(config.prices);
  EXPECT_DOUBLE_EQ(config.prices->input, 2.50);
}

TEST(ModelConfigTest, AnthropicKeyAloneChoosesAnthropic) {
  const auto outcome = resolve({}, {{"ANTHROPIC_API_KEY", "sk-ant"}});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().provider, "anthropic");
  EXPECT_EQ(outcome.value().api, provider::Api::kAnthropicMessages);
  EXPECT_EQ(outcome.value().base_url, "https://api.anthropic.com");
  EXPECT_EQ(outcome.value().model.id, "claude-sonnet-4-6");
  EXPECT_EQ(outcome.value().api_key, "sk-ant");
}

TEST(ModelConfigTest, AKnownModelNameChoosesItsProvider) {
  CliOptions options;
  options.model = "claude-haiku-4-5";
  const auto outcome = resolve(options, {{"OPENAI_API_KEY", "sk"}, {"ANTHROPIC_API_KEY", "a"}});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().provider, "anthropic");
  EXPECT_EQ(outcome.value().model.max_output_tokens, 64000);
}

TEST(ModelConfigTest, AnotherServerForOpenAISpeaksChatCompletions) {
  CliOptions options;
  options.base_url = "http://localhost:8080/v1/";
  options.model = "flag-model";
  const auto outcome =
      resolve(options, {{"OPENAI_BASE_URL", "http://other/v1"}, {"NIB_MODEL", "env-model"}});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().base_url, "http://localhost:8080/v1");
  EXPECT_EQ(outcome.value().api, provider::Api::kOpenAIChat);
  EXPECT_EQ(outcome.value().model.id, "flag-model");
  EXPECT_EQ(outcome.value().api_key, "");
  EXPECT_FALSE(outcome.value().prices);
}

TEST(ModelConfigTest, ApiFlagOverridesTheProtocol) {
  CliOptions options;
  options.base_url = "http://localhost:8080/v1";
  options.model = "m";
  options.api = "openai-responses";
  const auto outcome = resolve(options, {});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().api, provider::Api::kOpenAIResponses);
}

TEST(ModelConfigTest, AnthropicBaseUrlFromTheEnvironment) {
  CliOptions options;
  options.provider = "anthropic";
  options.model = "claude-x";
  const auto outcome = resolve(options, {{"ANTHROPIC_BASE_URL", "http://127.0.0.1:9/"}});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().base_url, "http://127.0.0.1:9");
  EXPECT_EQ(outcome.value().api, provider::Api::kAnthropicMessages);
}

TEST(ModelConfigTest, AnthropicWithoutKeyNamesTheVariable) {
  CliOptions options;
  options.provider = "anthropic";
  const auto outcome = resolve(options, {});
  EXPECT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("ANTHROPIC_API_KEY"), std::string::npos) << outcome.error();
}

TEST(ModelConfigTest, LocalServerNeedsAModelName) {
  const auto outcome = resolve({}, {{"OPENAI_BASE_URL", "http://localhost:11434/v1"}});
  EXPECT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("--model"), std::string::npos);
}

TEST(ModelConfigTest, UnknownProviderIsAnErrorListingTheKnownOnes) {
  const auto outcome = resolve({}, {{"NIB_PROVIDER", "acme"}});
  EXPECT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("acme"), std::string::npos);
  EXPECT_NE(outcome.error().find("openai, anthropic"), std::string::npos) << outcome.error();
}

TEST(ModelConfigTest, SettingsGiveProviderModelAndThinkingFlagsWin) {
  Configuration configuration = builtin();
  configuration.settings = {"anthropic", "claude-opus-4-7", core::ThinkingLevel::kHigh};
  const std::map<std::string, std::string> keys{{"OPENAI_API_KEY", "o"},
                                                {"ANTHROPIC_API_KEY", "a"}};
  auto outcome = resolve({}, keys, configuration);
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().provider, "anthropic");
  EXPECT_EQ(outcome.value().model.id, "claude-opus-4-7");
  EXPECT_EQ(outcome.value().thinking, core::ThinkingLevel::kHigh);

  CliOptions options;
  options.provider = "openai";
  options.thinking = "low";
  outcome = resolve(options, keys, configuration);
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().model.id, "gpt-5.4") << "the settings' model belongs to anthropic";
  EXPECT_EQ(outcome.value().thinking, core::ThinkingLevel::kLow);
}

TEST(ModelConfigTest, CustomProviderFromModelsJson) {
  Configuration configuration = builtin();
  provider::ProviderEntry ollama;
  ollama.name = "ollama";
  ollama.api = provider::Api::kOpenAIChat;
  ollama.base_url = "http://localhost:11434/v1";
  ollama.default_model = "qwen3:8b";
  ollama.models.push_back({"qwen3:8b", 40960, 8192, false, true, {}});
  configuration.providers.push_back(ollama);
  CliOptions options;
  options.provider = "ollama";
  const auto outcome = resolve(options, {}, configuration);
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().model.id, "qwen3:8b");
  EXPECT_FALSE(outcome.value().model.supports_images);
  EXPECT_EQ(outcome.value().model.context_window, 40960);
  EXPECT_EQ(outcome.value().api_key, "");
}

TEST(ModelConfigTest, UnknownModelAskedToThinkIsAssumedAble) {
  CliOptions options;
  options.base_url = "http://localhost:1/v1";
  options.model = "mystery";
  options.thinking = "medium";
  const auto outcome = resolve(options, {});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_TRUE(outcome.value().model.reasoning);
}

TEST(ModelConfigTest, WebSearchIsOnWhereTheProtocolHasAHostedSearch) {
  CliOptions options;
  options.web_search = true;
  auto outcome = resolve(options, {{"ANTHROPIC_API_KEY", "a"}});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_TRUE(outcome.value().web_search);
  EXPECT_TRUE(outcome.value().web_search_notice.empty());

  outcome = resolve(options, {{"OPENAI_API_KEY", "sk"}});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().api, provider::Api::kOpenAIResponses);
  EXPECT_TRUE(outcome.value().web_search);

  outcome = resolve({}, {{"OPENAI_API_KEY", "sk"}});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_FALSE(outcome.value().web_search) << "off unless asked for";
}

TEST(ModelConfigTest, WebSearchOverChatCompletionsIsOffWithOneLineSayingSo) {
  CliOptions options;
  options.web_search = true;
  options.base_url = "http://localhost:11434/v1";
  options.model = "qwen3";
  const auto outcome = resolve(options, {});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value().api, provider::Api::kOpenAIChat);
  EXPECT_FALSE(outcome.value().web_search);
  const std::string& notice = outcome.value().web_search_notice;
  EXPECT_NE(notice.find("openai-chat protocol has no hosted web search"), std::string::npos);
  EXPECT_EQ(notice.find('\n'), std::string::npos);

  Configuration configuration = builtin();
  configuration.settings.web_search = true;  // the setting asks just as the flag does
  const auto from_settings = resolve({}, {{"ANTHROPIC_API_KEY", "a"}}, configuration);
  ASSERT_TRUE(from_settings.ok()) << from_settings.error();
  EXPECT_TRUE(from_settings.value().web_search);
}

}  // namespace
}  // namespace nib::app
