#include "app/settings.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/plugin_setup.hpp"
#include "core/schema_validator.hpp"
#include "workspace/git_paths.hpp"

namespace nib::app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const json& settings_schema() {
  static const json schema = json::parse(R"({
    "type": "object",
    "additionalProperties": false,
    "properties": {
      "permissions": {"type": "object"},
      "hooks": {"type": "object"},
      "sandbox": {"type": "object"},
      "mcpServers": {"type": "object"},
      "mcp": {"type": "object"},
      "provider": {"type": "string", "minLength": 1},
      "model": {"type": "string", "minLength": 1},
      "thinking": {"enum": ["off", "low", "medium", "high"]},
      "webSearch": {"type": "boolean"},
      "maxTurns": {"type": "integer", "minimum": 1},
      "maxBudgetUsd": {"type": "number", "exclusiveMinimum": 0},
      "concurrency": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "tools": {"type": "integer", "minimum": 1, "maximum": 64},
          "requests": {"type": "integer", "minimum": 1, "maximum": 64},
          "subagents": {"type": "integer", "minimum": 1, "maximum": 64}
        }
      },
      "subagents": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "maxDepth": {"type": "integer", "minimum": 0, "maximum": 8}
        }
      },
      "retry": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "maxRetries": {"type": "integer", "minimum": 0, "maximum": 10},
          "baseDelayMs": {"type": "integer", "minimum": 0, "maximum": 60000}
        }
      },
      "compaction": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "enabled": {"type": "boolean"},
          "reserveTokens": {"type": "integer", "minimum": 0},
          "keepRecentTokens": {"type": "integer", "minimum": 0},
          "threshold": {"type": "number", "exclusiveMinimum": 0, "maximum": 1}
        }
      },
      "checkpoints": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "enabled": {"type": "boolean"},
          "maxStoreMB": {"type": "integer", "minimum": 1}
        }
      },
      "env": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "withhold": {
            "type": "array",
            "items": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}
          },
          "passThrough": {
            "type": "array",
            "items": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}
          }
        }
      }
    }
  })");
  return schema;
}

// Claude Code's settings have many fields nib does not know; only their shape is checked here,
// and each shared section by its owner.
const json& claude_settings_schema() {
  static const json schema = {{"type", "object"}};
  return schema;
}

const json& models_schema() {
  static const json schema = json::parse(R"({
    "type": "object",
    "additionalProperties": false,
    "properties": {
      "providers": {
        "type": "object",
        "additionalProperties": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "api": {"enum": ["openai-chat", "openai-responses", "anthropic-messages"]},
            "baseUrl": {"type": "string", "pattern": "^https?://"},
            "apiKeyEnv": {"type": "string"},
            "defaultModel": {"type": "string", "minLength": 1},
            "models": {
              "type": "array",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["id"],
                "properties": {
                  "id": {"type": "string", "minLength": 1},
                  "contextWindow": {"type": "integer", "minimum": 1},
                  "maxOutputTokens": {"type": "integer", "minimum": 1},
                  "vision": {"type": "boolean"},
                  "reasoning": {"type": "boolean"},
                  "editTool": {"enum": ["apply_patch", "edit"]},
                  "cost": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                      "input": {"type": "number", "minimum": 0},
                      "output": {"type": "number", "minimum": 0},
                      "cacheRead": {"type": "number", "minimum": 0},
                      "cacheWrite": {"type": "number", "minimum": 0}
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  })");
  return schema;
}

// The file's JSON when it exists and is valid against `schema`; nullopt when it does not exist;
// otherwise a failure "<file>: <field>: <problem>".
struct ConfigFile {
  json document;
  std::string text;  // as written
};

util::Result<std::optional<ConfigFile>> read_config_file(const fs::path& file, const json& schema) {
  using Result = util::Result<std::optional<ConfigFile>>;
  std::ifstream in(file);
  if (!in) {
    std::error_code error;
    if (!fs::exists(file, error)) return std::optional<ConfigFile>();
    return Result::failure(file.string() + ": cannot be read");
  }
  std::stringstream text;
  text << in.rdbuf();
  json document;
  try {
    document = json::parse(text.str());
  } catch (const json::parse_error& error) {
    // nlohmann's message: "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    std::string what = error.what();
    const auto at = what.find("parse error");
    return Result::failure(
        file.string() + ": not valid JSON: " + (at == std::string::npos ? what : what.substr(at)));
  }
  // The schemas are nib's own, checked by the tests: compiling them cannot fail.
  const auto compiled = core::CompiledSchema::compile(schema);
  const auto errors = compiled.value()->validate(document);
  if (!errors.empty()) {
    const core::FieldError& first = errors.front();
    return Result::failure(file.string() + ": " + (first.path.empty() ? "(root)" : first.path) +
                           ": " + first.message);
  }
  return std::optional<ConfigFile>(ConfigFile{std::move(document), text.str()});
}

void apply_settings(const json& document, Settings& settings) {
  if (document.contains("provider")) settings.provider = document["provider"].get<std::string>();
  if (document.contains("model")) settings.model = document["model"].get<std::string>();
  if (document.contains("thinking")) {
    settings.thinking = core::parse_thinking_level(document["thinking"].get<std::string>());
  }
  if (document.contains("webSearch")) settings.web_search = document["webSearch"].get<bool>();
  if (document.contains("maxTurns")) settings.max_turns = document["maxTurns"].get<int>();
  if (document.contains("maxBudgetUsd")) {
    settings.max_budget_usd = document["maxBudgetUsd"].get<double>();
  }
  if (const auto concurrency = document.find("concurrency"); concurrency != document.end()) {
    if (concurrency->contains("tools")) {
      settings.concurrent_tools = (*concurrency)["tools"].get<int>();
    }
    if (concurrency->contains("requests")) {
      settings.concurrent_requests = (*concurrency)["requests"].get<int>();
    }
    if (concurrency->contains("subagents")) {
      settings.concurrent_subagents = (*concurrency)["subagents"].get<int>();
    }
  }
  if (const auto subagents = document.find("subagents"); subagents != document.end()) {
    if (subagents->contains("maxDepth")) {
      settings.subagent_max_depth = (*subagents)["maxDepth"].get<int>();
    }
  }
  if (const auto compaction = document.find("compaction"); compaction != document.end()) {
    if (compaction->contains("enabled")) {
      settings.compaction_enabled = (*compaction)["enabled"].get<bool>();
    }
    if (compaction->contains("reserveTokens")) {
      settings.compaction_reserve_tokens = (*compaction)["reserveTokens"].get<std::int64_t>();
    }
    if (compaction->contains("threshold")) {
      settings.compaction_threshold = (*compaction)["threshold"].get<double>();
    }
    if (compaction->contains("keepRecentTokens")) {
      settings.compaction_keep_recent_tokens =
          (*compaction)["keepRecentTokens"].get<std::int64_t>();
    }
  }
  if (const auto checkpoints = document.find("checkpoints"); checkpoints != document.end()) {
    if (checkpoints->contains("enabled")) {
      settings.checkpoints_enabled = (*checkpoints)["enabled"].get<bool>();
    }
    if (checkpoints->contains("maxStoreMB")) {
      settings.checkpoints_max_store_mb = (*checkpoints)["maxStoreMB"].get<std::int64_t>();
    }
  }
  if (const auto env = document.find("env"); env != document.end()) {
    for (const json& name : env->value("withhold", json::array())) {
      settings.env_withhold.push_back(name.get<std::string>());
    }
    for (const json& name : env->value("passThrough", json::array())) {
      settings.env_pass_through.push_back(name.get<std::string>());
    }
  }
  if (const auto retry = document.find("retry"); retry != document.end()) {
    if (retry->contains("maxRetries")) settings.max_retries = (*retry)["maxRetries"].get<int>();
    if (retry->contains("baseDelayMs")) {
      settings.retry_base_delay_ms = (*retry)["baseDelayMs"].get<int>();
    }
  }
}

provider::ModelEntry model_from(const json& item) {
  provider::ModelEntry model;
  model.id = item["id"].get<std::string>();
  model.context_window = item.value("contextWindow", 0);
  model.max_output_tokens = item.value("maxOutputTokens", 0);
  // Models from a user's file are assumed to take images unless it says otherwise: a model
  // that does not is told so on the first image, while a wrong "no" would hide them silently.
  model.vision = item.value("vision", true);
  model.reasoning = item.value("reasoning", false);
  if (const auto tool = item.find("editTool"); tool != item.end()) {
    model.edit_style = *tool == "apply_patch" ? core::EditStyle::kPatch : core::EditStyle::kReplace;
  }
  if (const auto cost = item.find("cost"); cost != item.end()) {
    model.prices = {cost->value("input", 0.0), cost->value("output", 0.0),
                    cost->value("cacheRead", 0.0), cost->value("cacheWrite", 0.0)};
  }
  return model;
}

void apply_models(const json& document, std::vector<provider::ProviderEntry>& providers) {
  const auto section = document.find("providers");
  if (section == document.end()) return;
  for (const auto& [name, fields] : section->items()) {
    auto entry = std::find_if(providers.begin(), providers.end(),
                              [&name](const auto& known) { return known.name == name; });
    if (entry == providers.end()) {
      provider::ProviderEntry fresh;
      fresh.name = name;
      providers.push_back(std::move(fresh));
      entry = std::prev(providers.end());
    }
    if (fields.contains("api")) entry->api = *provider::parse_api(fields["api"].get<std::string>());
    if (fields.contains("baseUrl")) {
      entry->base_url = fields["baseUrl"].get<std::string>();
      entry->base_url_env.clear();  // the file names the endpoint; no variable overrides it
    }
    if (fields.contains("apiKeyEnv")) entry->api_key_env = fields["apiKeyEnv"].get<std::string>();
    if (fields.contains("defaultModel")) {
      entry->default_model = fields["defaultModel"].get<std::string>();
    }
    for (const json& item : fields.value("models", json::array())) {
      provider::ModelEntry model = model_from(item);
      const auto same = std::find_if(entry->models.begin(), entry->models.end(),
                                     [&model](const auto& known) { return known.id == model.id; });
      if (same != entry->models.end()) {
        *same = std::move(model);
      } else {
        entry->models.push_back(std::move(model));
      }
    }
  }
}

}  // namespace

const provider::ProviderEntry* Configuration::find_provider(const std::string& name) const {
  for (const auto& entry : providers) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

std::vector<std::string> Configuration::api_key_variables() const {
  std::vector<std::string> names;
  for (const auto& entry : providers) {
    if (!entry.api_key_env.empty() &&
        std::find(names.begin(), names.end(), entry.api_key_env) == names.end()) {
      names.push_back(entry.api_key_env);
    }
  }
  return names;
}

namespace {

// Sets written_by_user: the user's files are; the local ones when git ignores them, asked of git
// once for all of them, and only when there is one.
void mark_written_by_user(std::vector<SettingsSource>& sources, const fs::path& project) {
  std::vector<fs::path> local;
  for (SettingsSource& source : sources) {
    source.written_by_user = source.scope == SettingsSource::Scope::kUser;
    if (source.scope == SettingsSource::Scope::kLocal) local.push_back(source.file);
  }
  if (local.empty()) return;
  const std::vector<fs::path> ignored = workspace::git_ignored(project, local);
  for (SettingsSource& source : sources) {
    if (std::find(ignored.begin(), ignored.end(), source.file) != ignored.end()) {
      source.written_by_user = true;
    }
  }
}

}  // namespace

ConfigDirectories config_directories(const util::UserPlaces& places, const fs::path& cwd) {
  return {places.config_home.empty() ? fs::path() : places.config_home / "nib", cwd / ".nib",
          places.home.empty() ? fs::path() : places.home / ".claude", cwd / ".claude"};
}

util::Result<Configuration> load_configuration(const ConfigDirectories& directories) {
  using Result = util::Result<Configuration>;
  using Scope = SettingsSource::Scope;
  Configuration configuration;
  configuration.providers = provider::builtin_providers();
  struct SettingsFile {
    fs::path directory;
    const char* name;
    Scope scope;
    bool claude;
  };
  const SettingsFile files[] = {
      {directories.claude_user, "settings.json", Scope::kUser, true},
      {directories.global, "settings.json", Scope::kUser, false},
      {directories.claude_project, "settings.json", Scope::kProject, true},
      {directories.project, "settings.json", Scope::kProject, false},
      {directories.claude_project, "settings.local.json", Scope::kLocal, true},
      {directories.project, "settings.local.json", Scope::kLocal, false},
  };
  for (const SettingsFile& file : files) {
    if (file.directory.empty()) continue;
    const fs::path path = file.directory / file.name;
    auto settings =
        read_config_file(path, file.claude ? claude_settings_schema() : settings_schema());
    if (!settings.ok()) return Result::failure("nib: " + settings.error());
    if (!settings.value()) continue;
    ConfigFile& read = *settings.value();
    if (!file.claude) apply_settings(read.document, configuration.settings);
    configuration.sources.push_back(
        {path, file.scope, file.claude, std::move(read.document), std::move(read.text)});
  }
  mark_written_by_user(configuration.sources, directories.project.parent_path());
  for (const fs::path& directory : {directories.global, directories.project}) {
    if (directory.empty()) continue;
    const auto models = read_config_file(directory / "models.json", models_schema());
    if (!models.ok()) return Result::failure("nib: " + models.error());
    if (models.value()) apply_models(models.value()->document, configuration.providers);
  }
  std::vector<extensions::SettingsDocument> claude_settings;
  for (const SettingsSource& source : configuration.sources) {
    if (source.claude) {
      claude_settings.push_back({source.file, &source.document, source.written_by_user});
    }
  }
  configuration.plugins = load_claude_plugins(
      claude_settings,
      directories.claude_user.empty() ? fs::path() : directories.claude_user.parent_path(),
      directories.claude_project.parent_path());
  for (const auto& entry : configuration.providers) {
    if (entry.base_url.empty()) {
      return Result::failure("nib: provider \"" + entry.name +
                             "\" in models.json has no baseUrl; add \"baseUrl\" (e.g. "
                             "\"http://localhost:11434/v1\").");
    }
  }
  return configuration;
}

}  // namespace nib::app
