#pragma once
// Which model service and model to use, and how: flags first, then the environment
// (docs/configuration.md), then settings.json, then the provider's defaults. Pure: the
// environment and the loaded configuration are passed in.

#include <optional>
#include <string>

#include "app/cli.hpp"
#include "app/settings.hpp"
#include "core/provider.hpp"
#include "provider/model_registry.hpp"
#include "provider/retrying_provider.hpp"
#include "util/environment.hpp"
#include "util/result.hpp"

namespace nib::app {

struct ModelConfig {
  std::string provider;  // the provider's name ("openai", "anthropic", "ollama" ...)
  provider::Api api = provider::Api::kOpenAIChat;
  std::string base_url;  // without a trailing slash
  std::string api_key;   // may be empty for local servers
  core::ModelInfo model;
  std::optional<provider::ModelPrices> prices;  // when the model is known
  core::ThinkingLevel thinking = core::ThinkingLevel::kOff;
  // The service's hosted web search is offered (asked for, and the protocol has one).
  bool web_search = false;
  // Set when web search was asked for but the protocol has none: the one line saying so.
  std::string web_search_notice;
  provider::RetryPolicy retry;  // settings.json's "retry" over the defaults
};

// Resolution:
// - provider: --provider, NIB_PROVIDER, settings.json; otherwise the provider that lists the
//   named model; otherwise "openai" when OPENAI_API_KEY or a base URL for it is set, else
//   "anthropic" when ANTHROPIC_API_KEY is set, else "openai".
// - base URL: --base-url, the provider's variable (OPENAI_BASE_URL ...), its configured URL.
//   The built-in openai provider pointed at another server speaks Chat Completions, which
//   compatible servers (Ollama, llama.cpp, vLLM) implement; at api.openai.com, the Responses
//   API. --api overrides the protocol.
// - key: the provider's key variable; required by the built-in services' own endpoints.
// - model: --model, NIB_MODEL, settings.json (when it names this provider or none), the
//   provider's default (not for a compatible server); otherwise one must be named.
// - thinking: --thinking, settings.json, off.
// - web search: --web-search or settings.json's webSearch, where the protocol has a hosted
//   search (anthropic-messages, openai-responses). Chat Completions has none: the run goes on
//   without it and web_search_notice says so (a flag that a setting may turn on for every
//   provider should not stop a local model from working).
// - retry: settings.json's maxRetries and baseDelayMs over RetryPolicy's defaults.
// A failure is one or two lines saying how to fix it (exit status 2).
util::Result<ModelConfig> resolve_model_config(const CliOptions& options,
                                               const util::EnvLookup& env,
                                               const Configuration& configuration);

// The model `name` means among `entry`'s: its id, or a family alias as Claude Code's agent
// definitions and commands write it ("sonnet", "opus", "haiku": the first listed model of that
// family); nullptr when none.
const provider::ModelEntry* model_named(const provider::ProviderEntry& entry,
                                        const std::string& name);

}  // namespace nib::app
