#include "app/command_environment.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace nib::app {
namespace {

// The configuration nib would load from `settings` and `models` (either may be empty).
Configuration configuration_of(const std::string& settings, const std::string& models) {
  testing::TempDir dir;
  if (!settings.empty()) dir.write("global/settings.json", settings);
  if (!models.empty()) dir.write("global/models.json", models);
  auto outcome = load_configuration({dir.path() / "global", dir.path() / "project"});
  EXPECT_TRUE(outcome.ok()) << outcome.error();
  return outcome.ok() ? std::move(outcome.value()) : Configuration{};
}

TEST(WithheldEnvironment, HoldsBackTheBuiltInProvidersKeys) {
  EXPECT_EQ(withheld_environment(configuration_of("", "")),
            (std::vector<std::string>{"ANTHROPIC_API_KEY", "OPENAI_API_KEY"}));
}

TEST(WithheldEnvironment, HoldsBackEveryApiKeyEnvOfModelsJson) {
  const auto names = withheld_environment(
      configuration_of("", R"({"providers": {"ollama": {"baseUrl": "http://localhost:11434/v1",
                                        "apiKeyEnv": "OLLAMA_API_KEY"},
                             "openai": {"apiKeyEnv": "MY_OPENAI_KEY"}}})"));
  EXPECT_EQ(names,
            (std::vector<std::string>{"ANTHROPIC_API_KEY", "MY_OPENAI_KEY", "OLLAMA_API_KEY"}));
}

TEST(WithheldEnvironment, SettingsHoldBackMoreAndPassSomeThrough) {
  const auto names = withheld_environment(configuration_of(
      R"({"env": {"withhold": ["GITHUB_TOKEN", "OPENAI_API_KEY"],
                  "passThrough": ["ANTHROPIC_API_KEY"]}})",
      ""));
  EXPECT_EQ(names, (std::vector<std::string>{"GITHUB_TOKEN", "OPENAI_API_KEY"}));
}

}  // namespace
}  // namespace nib::app
