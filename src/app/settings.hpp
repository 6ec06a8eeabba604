#pragma once
// The user's configuration files: settings.json (default provider, model and thinking level,
// retries, compaction, the environment commands get) and models.json (providers of their own: local
// servers, gateways, extra models), read from the global directory (nib in the user's config
// directory, util/user_places.hpp: $XDG_CONFIG_HOME/nib, else ~/.config/nib) and then the
// project's .nib/ directory, whose values win. Missing files are fine;
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
//
// Sections owned elsewhere ("permissions", "hooks", "sandbox", "mcpServers", "mcp") are not read
// here: every settings document is kept in Configuration::sources, with its file, so the owner of a
// section reads it from all of them and names the file when something in it is wrong. Claude
// Code's settings files are among the sources, so rules and hooks written for it carry over;
// nib reads only those sections of them and ignores the rest.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/provider.hpp"
#include "provider/model_registry.hpp"
#include "util/result.hpp"
#include "util/user_places.hpp"

namespace nib::extensions {
struct PluginCatalog;
}  // namespace nib::extensions

namespace nib::app {

struct Settings {
  std::optional<std::string> provider;
  std::optional<std::string> model;
  std::optional<core::ThinkingLevel> thinking;
  // "webSearch": offer the service's hosted web search (as --web-search does).
  std::optional<bool> web_search;
  std::optional<int> max_turns;  // "maxTurns": model requests per run (no limit when absent)
  // "maxBudgetUsd": the spending cap in US dollars, as --max-budget-usd (none when absent).
  std::optional<double> max_budget_usd;
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
  std::optional<double> compaction_threshold;  // "threshold": a fraction of the window
  // "checkpoints": {"enabled": false} turns checkpoints of the working tree off; "maxStoreMB"
  // caps their store (session/checkpoint_store.hpp).
  std::optional<bool> checkpoints_enabled;
  std::optional<std::int64_t> checkpoints_max_store_mb;
  // "env": {"withhold": [NAME...], "passThrough": [NAME...]}: variables commands do not get on
  // top of the provider keys, and provider keys they get after all (command_environment.hpp).
  // Both files' lists add up.
  std::vector<std::string> env_withhold;
  std::vector<std::string> env_pass_through;
};

// One settings document, as read.
struct SettingsSource {
  enum class Scope {
    kUser,     // ~/.claude/settings.json, $XDG_CONFIG_HOME/nib/settings.json
    kProject,  // .claude/settings.json, .nib/settings.json (shared with the repository)
    kLocal,    // .claude/settings.local.json, .nib/settings.local.json (this checkout only)
  };
  std::filesystem::path file;
  Scope scope = Scope::kUser;
  bool claude = false;  // Claude Code's file: only the shared sections are nib's to read
  nlohmann::json document;
  std::string text;  // the file as written (the permission rules' lines are found in it)
  // The user's word, not a repository's: their own file, or this checkout's local file when git
  // ignores it (a repository may commit a settings.local.json of its own). What only the user
  // may decide (approving a project's MCP servers, a plugin's servers running as theirs) is
  // read from these alone.
  bool written_by_user = false;
};

struct Configuration {
  Settings settings;
  // Every settings file that exists, weakest first: a later source's value wins where a
  // section is "last one wins", and all of them add up where it is a list.
  std::vector<SettingsSource> sources;
  // The built-in providers with models.json applied, then the new ones in file order.
  std::vector<provider::ProviderEntry> providers;
  // The Claude Code plugins Claude Code's settings among `sources` enable (plugin_setup.hpp);
  // never null once loaded.
  std::shared_ptr<const extensions::PluginCatalog> plugins;

  // The provider named `name`, or nullptr.
  const provider::ProviderEntry* find_provider(const std::string& name) const;
  // The environment variables that hold a provider's API key (OPENAI_API_KEY, every
  // apiKeyEnv), each once, in provider order.
  std::vector<std::string> api_key_variables() const;
};

struct ConfigDirectories {
  std::filesystem::path global;          // <config home>/nib (empty without one)
  std::filesystem::path project;         // <working directory>/.nib
  std::filesystem::path claude_user;     // <home>/.claude (empty without a home)
  std::filesystem::path claude_project;  // <working directory>/.claude
};

// The directories of `places` (util/user_places.hpp) and the working directory `cwd`.
ConfigDirectories config_directories(const util::UserPlaces& places,
                                     const std::filesystem::path& cwd);

// Both directories' files applied in turn; a failure reads "nib: <file>: <field>: <problem>".
util::Result<Configuration> load_configuration(const ConfigDirectories& directories);

}  // namespace nib::app
