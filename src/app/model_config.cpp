#include "app/model_config.hpp"

#include "provider/sse_exchange.hpp"

namespace nib::app {
namespace {

std::optional<std::string> first_of(const std::optional<std::string>& flag,
                                    const util::EnvLookup& env, const char* variable) {
  if (flag && !flag->empty()) return flag;
  return env(variable);
}

std::string provider_names(const Configuration& configuration) {
  std::string names;
  for (const auto& entry : configuration.providers) {
    names += (names.empty() ? "" : ", ") + entry.name;
  }
  return names;
}

// The provider to use when none is named (see resolve_model_config).
std::string inferred_provider(const CliOptions& options, const util::EnvLookup& env,
                              const std::optional<std::string>& model,
                              const Configuration& configuration) {
  if (model) {
    for (const auto& entry : configuration.providers) {
      if (entry.find(*model) != nullptr) return entry.name;
    }
  }
  const bool openai_hint = options.base_url || env("OPENAI_API_KEY") || env("OPENAI_BASE_URL");
  if (!openai_hint && env("ANTHROPIC_API_KEY")) return "anthropic";
  return "openai";
}

bool is_builtin_endpoint(const provider::ProviderEntry& entry, const std::string& base_url) {
  for (const auto& builtin : provider::builtin_providers()) {
    if (builtin.name == entry.name) return provider::endpoint_url(builtin.base_url, "") == base_url;
  }
  return false;
}

std::string missing_key_message(const provider::ProviderEntry& entry) {
  if (entry.name == "openai") {
    return "nib: no model service configured. Set OPENAI_API_KEY (or ANTHROPIC_API_KEY), or use "
           "a local OpenAI-compatible server:\n  nib --base-url http://localhost:11434/v1 "
           "--model NAME -p \"PROMPT\"   (or set OPENAI_BASE_URL and NIB_MODEL)";
  }
  return "nib: set " + entry.api_key_env + " to use " + entry.name +
         " (or choose another provider with --provider).";
}

}  // namespace

util::Result<ModelConfig> resolve_model_config(const CliOptions& options,
                                               const util::EnvLookup& env,
                                               const Configuration& configuration) {
  using Result = util::Result<ModelConfig>;
  const Settings& settings = configuration.settings;
  std::optional<std::string> named_provider = first_of(options.provider, env, "NIB_PROVIDER");
  if (!named_provider) named_provider = settings.provider;
  const std::optional<std::string> named_model = first_of(options.model, env, "NIB_MODEL");
  const std::string provider_name =
      named_provider.value_or(inferred_provider(options, env, named_model, configuration));
  const provider::ProviderEntry* entry = configuration.find_provider(provider_name);
  if (entry == nullptr) {
    return Result::failure("nib: unknown provider \"" + provider_name +
                           "\". Known: " + provider_names(configuration) +
                           " (add others in ~/.config/nib/models.json).");
  }

  ModelConfig config;
  config.provider = entry->name;
  std::optional<std::string> base_url = options.base_url;
  if (!base_url && !entry->base_url_env.empty()) base_url = env(entry->base_url_env.c_str());
  config.base_url = provider::endpoint_url(base_url.value_or(entry->base_url), "");
  const bool official = is_builtin_endpoint(*entry, config.base_url);
  // OpenAI's provider pointed at another server: a compatible one (Ollama, llama.cpp, vLLM),
  // which speaks Chat Completions and serves models of its own.
  const bool compatible_server = entry->name == "openai" && !official;
  config.api = compatible_server ? provider::Api::kOpenAIChat : entry->api;
  if (options.api) {
    const auto api = provider::parse_api(*options.api);
    if (!api) {
      return Result::failure("nib: unknown --api \"" + *options.api +
                             "\". Use openai-chat, openai-responses or anthropic-messages.");
    }
    config.api = *api;
  }
  if (!entry->api_key_env.empty()) {
    config.api_key = env(entry->api_key_env.c_str()).value_or("");
  }
  if (official && config.api_key.empty()) return Result::failure(missing_key_message(*entry));

  std::optional<std::string> model = named_model;
  const bool settings_apply = !settings.provider || *settings.provider == entry->name;
  if (!model && settings_apply) model = settings.model;
  if (!model && !compatible_server && !entry->default_model.empty()) model = entry->default_model;
  if (!model) {
    return Result::failure("nib: name the model served at " + config.base_url +
                           " with --model NAME (or set NIB_MODEL).");
  }

  config.thinking = core::ThinkingLevel::kOff;
  if (options.thinking) {
    config.thinking = *core::parse_thinking_level(*options.thinking);
  } else if (settings.thinking) {
    config.thinking = *settings.thinking;
  }
  if (options.web_search || settings.web_search.value_or(false)) {
    if (config.api == provider::Api::kOpenAIChat) {
      config.web_search_notice =
          "nib: web search is off: the openai-chat protocol has no hosted web search (it needs "
          "anthropic-messages or openai-responses, see --api)";
    } else {
      config.web_search = true;
    }
  }
  if (settings.max_retries) config.retry.max_retries = *settings.max_retries;
  if (settings.retry_base_delay_ms) {
    config.retry.first_backoff = std::chrono::milliseconds(*settings.retry_base_delay_ms);
  }
  config.model.id = *model;
  if (const provider::ModelEntry* known = entry->find(*model)) {
    config.model = provider::model_info(*known);
    config.prices = known->prices;
  } else {
    // An unknown model is taken at its word: asked to think, it is assumed able to.
    config.model.reasoning = config.thinking != core::ThinkingLevel::kOff;
    config.model.edit_style = provider::edit_style_for(*model);
  }
  return config;
}

const provider::ModelEntry* model_named(const provider::ProviderEntry& entry,
                                        const std::string& name) {
  if (const provider::ModelEntry* exact = entry.find(name)) return exact;
  for (const provider::ModelEntry& model : entry.models) {
    if (model.id.find("-" + name) != std::string::npos) return &model;
  }
  return nullptr;
}

}  // namespace nib::app
