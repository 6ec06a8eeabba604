#pragma once
// The user's configuration files: settings.json (default provider, model and thinking level,
// retries, compaction, the environment commands get) and models.json (providers of their own: local
// servers, gateways, extra models), read from the global directory ($XDG_CONFIG_HOME/nib, else
// ~/.config/nib) and then the project's .nib/ directory, whose values win. Missing files are fine;
// a file that is not valid is an error naming the file, the field and the problem. Pure apart from
// reading the files.
//
// models.json:
//   {"providers": {"ollama": {"api": "openai-chat", "baseUrl": "http://localhost:11434/v1",
//     "apiKeyEnv": "OLLAMA_API_KEY", "defaultModel": "qwen3:8b",
//     "models": [{"id": "qwen3:8b", "contextWindow": 40960, "maxOutputTokens": 8192,
//                 "vision": false, "reasoning": true,
//                 "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}}]}}}
// A provider named like a built-in one ("openai", "anthropic") changes the fields it gives and
// adds or replaces models by id.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/environment.hpp"
#include "core/provider.hpp"
#include "provider/model_registry.hpp"
#include "util/result.hpp"

namespace nib::app {

struct Settings {
  std::optional<std::string> provider;
  std::optional<std::string> model;
  std::optional<core::ThinkingLevel> thinking;
  std::optional<int> max_turns;  // "maxTurns": model requests per run (no limit when absent)
  // "concurrency": {"tools": N, "requests": M, "subagents": S}: the process's budget
  // (core/slot_pool.hpp; S subagents at once on each level of nesting, agent/limits.hpp).
  std::optional<int> concurrent_tools;
  std::optional<int> concurrent_requests;
  std::optional<int> concurrent_subagents;
  // "subagents": {"maxDepth": D}: how deep subagents may nest (0: no task tool at all).
  std::optional<int> subagent_max_depth;
  std::optional<int> max_retries;  // "retry": {"maxRetries": N, "baseDelayMs": M}
  std::optional<int> retry_base_delay_ms;
  // "compaction": {"enabled": B, "reserveTokens": N, "keepRecentTokens": M}
  std::optional<bool> compaction_enabled;
  std::optional<std::int64_t> compaction_reserve_tokens;
  std::optional<std::int64_t> compaction_keep_recent_tokens;
  // "env": {"withhold": [NAME...], "passThrough": [NAME...]}: variables commands do not get on
  // top of the provider keys, and provider keys they get after all (command_environment.hpp).
  // Both files' lists add up.
  std::vector<std::string> env_withhold;
  std::vector<std::string> env_pass_through;
};

struct Configuration {
  Settings settings;
  // The built-in providers with models.json applied, then the new ones in file order.
  std::vector<provider::ProviderEntry> providers;

  // The provider named `name`, or nullptr.
  const provider::ProviderEntry* find_provider(const std::string& name) const;
  // The environment variables that hold a provider's API key (OPENAI_API_KEY, every
  // apiKeyEnv), each once, in provider order.
  std::vector<std::string> api_key_variables() const;
};

struct ConfigDirectories {
  std::filesystem::path global;   // $XDG_CONFIG_HOME/nib or $HOME/.config/nib
  std::filesystem::path project;  // <working directory>/.nib
};

ConfigDirectories config_directories(const EnvLookup& env, const std::filesystem::path& cwd);

// Both directories' files applied in turn; a failure reads "nib: <file>: <field>: <problem>".
util::Result<Configuration> load_configuration(const ConfigDirectories& directories);

}  // namespace nib::app
