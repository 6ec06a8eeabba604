#pragma once
// Which model service to talk to: flags first, then the environment (DESIGN.md fallbacks).
// Pure: the environment is passed in, so tests need not touch the real one.

#include <functional>
#include <optional>
#include <string>

#include "app/cli.hpp"

namespace nib::app {

// Used with api.openai.com when no model is named.
inline constexpr const char* kDefaultOpenAIModel = "gpt-5";

struct ModelConfig {
  std::string provider;  // "openai"
  std::string model;
  std::string base_url;
  std::string api_key;  // may be empty for local servers
};

// Looks up an environment variable; nullopt when unset or empty.
using EnvLookup = std::function<std::optional<std::string>(const char*)>;
EnvLookup process_environment();

struct ModelConfigOutcome {
  std::optional<ModelConfig> config;
  std::string error;  // one or two lines saying how to fix it (exit status 2)
};

ModelConfigOutcome resolve_model_config(const CliOptions& options, const EnvLookup& env);

}  // namespace nib::app
