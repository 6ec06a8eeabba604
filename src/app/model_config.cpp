#include "app/model_config.hpp"

#include <cstdlib>

#include "provider/openai_chat.hpp"

namespace nib::app {
namespace {

std::optional<std::string> first_of(const std::optional<std::string>& flag, const EnvLookup& env,
                                    const char* variable) {
  if (flag && !flag->empty()) return flag;
  return env(variable);
}

std::string without_trailing_slash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

EnvLookup process_environment() {
  return [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    if (!value || !*value) return std::nullopt;
    return std::string(value);
  };
}

ModelConfigOutcome resolve_model_config(const CliOptions& options, const EnvLookup& env) {
  const std::string provider = first_of(options.provider, env, "NIB_PROVIDER").value_or("openai");
  if (provider != "openai") {
    return {std::nullopt, "nib: unknown provider \"" + provider +
                              "\". Supported: openai (including OpenAI-compatible servers via "
                              "--base-url)."};
  }

  ModelConfig config;
  config.provider = provider;
  config.base_url = without_trailing_slash(
      first_of(options.base_url, env, "OPENAI_BASE_URL").value_or(provider::kOpenAIDefaultBaseUrl));
  config.api_key = env("OPENAI_API_KEY").value_or("");
  const bool official = config.base_url == provider::kOpenAIDefaultBaseUrl;
  if (official && config.api_key.empty()) {
    return {std::nullopt,
            "nib: no model service configured. Set OPENAI_API_KEY, or use a local "
            "OpenAI-compatible server:\n  nib --base-url http://localhost:11434/v1 --model NAME "
            "-p \"PROMPT\"   (or set OPENAI_BASE_URL and NIB_MODEL)"};
  }
  const auto model = first_of(options.model, env, "NIB_MODEL");
  if (!model && !official) {
    return {std::nullopt, "nib: name the model served at " + config.base_url +
                              " with --model NAME (or set NIB_MODEL)."};
  }
  config.model = model.value_or(kDefaultOpenAIModel);
  return {config, {}};
}

}  // namespace nib::app
