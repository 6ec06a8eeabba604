#include "app/model_config.hpp"

#include <gtest/gtest.h>

#include <map>

namespace nib::app {
namespace {

EnvLookup env_of(std::map<std::string, std::string> values) {
  return [values](const char* name) -> std::optional<std::string> {
    const auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

TEST(ModelConfigTest, NothingConfiguredExplainsHowInTwoLines) {
  const auto outcome = resolve_model_config({}, env_of({}));
  EXPECT_FALSE(outcome.config);
  EXPECT_NE(outcome.error.find("OPENAI_API_KEY"), std::string::npos);
  EXPECT_NE(outcome.error.find("--base-url"), std::string::npos);
  EXPECT_LE(std::count(outcome.error.begin(), outcome.error.end(), '\n'), 1);
}

TEST(ModelConfigTest, OpenAIKeyGivesTheDefaultModel) {
  const auto outcome = resolve_model_config({}, env_of({{"OPENAI_API_KEY", "sk-test"}}));
  ASSERT_TRUE(outcome.config);
  EXPECT_EQ(outcome.config->base_url, "https://api.openai.com/v1");
  EXPECT_EQ(outcome.config->model, kDefaultOpenAIModel);
  EXPECT_EQ(outcome.config->api_key, "sk-test");
}

TEST(ModelConfigTest, FlagsWinOverEnvironment) {
  CliOptions options;
  options.base_url = "http://localhost:8080/v1/";
  options.model = "flag-model";
  const auto outcome = resolve_model_config(
      options, env_of({{"OPENAI_BASE_URL", "http://other/v1"}, {"NIB_MODEL", "env-model"}}));
  ASSERT_TRUE(outcome.config);
  EXPECT_EQ(outcome.config->base_url, "http://localhost:8080/v1");
  EXPECT_EQ(outcome.config->model, "flag-model");
  EXPECT_EQ(outcome.config->api_key, "");
}

TEST(ModelConfigTest, LocalServerNeedsAModelName) {
  const auto outcome =
      resolve_model_config({}, env_of({{"OPENAI_BASE_URL", "http://localhost:11434/v1"}}));
  EXPECT_FALSE(outcome.config);
  EXPECT_NE(outcome.error.find("--model"), std::string::npos);
}

TEST(ModelConfigTest, UnknownProviderIsAnError) {
  const auto outcome = resolve_model_config({}, env_of({{"NIB_PROVIDER", "acme"}}));
  EXPECT_FALSE(outcome.config);
  EXPECT_NE(outcome.error.find("acme"), std::string::npos);
}

}  // namespace
}  // namespace nib::app
