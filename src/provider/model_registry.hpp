#pragma once
// The services and models nib knows without configuration: each provider's wire protocol,
// endpoint, key variable and default model, and each model's limits, abilities and prices.
// Users add their own (local servers, gateways) in models.json (app/settings). Immutable data;
// thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/messages.hpp"
#include "core/provider.hpp"

namespace nib::provider {

// The wire protocols nib speaks.
enum class Api { kOpenAIChat, kOpenAIResponses, kAnthropicMessages };

// "openai-chat", "openai-responses", "anthropic-messages" (the names used in models.json and
// in AssistantMessage::api).
const char* api_name(Api api);
std::optional<Api> parse_api(std::string_view name);

// US dollars per million tokens.
struct ModelPrices {
  double input = 0;
  double output = 0;
  double cache_read = 0;
  double cache_write = 0;
};

struct ModelEntry {
  std::string id;             // as the service names it
  int context_window = 0;     // tokens; 0 when unknown
  int max_output_tokens = 0;  // tokens; 0 when unknown (the service decides)
  bool vision = false;        // accepts images
  bool reasoning = false;     // thinks before answering (--thinking applies)
  ModelPrices prices;
  // How it edits files, when models.json says ("editTool"); else its family's (edit_style_for).
  std::optional<core::EditStyle> edit_style = std::nullopt;
};

// How a model of this name edits files: with patches (apply_patch) for OpenAI's GPT-5, GPT-4.1,
// o3, o4 and codex models, which are trained on them; by replacing text (edit, write) for any
// other. A "provider/" prefix (a gateway's spelling) is looked past.
core::EditStyle edit_style_for(std::string_view model_id);

struct ProviderEntry {
  std::string name;  // "openai", "anthropic", or a name from models.json
  Api api = Api::kOpenAIChat;
  std::string base_url;       // as the protocol's provider expects it (see each protocol)
  std::string base_url_env;   // a variable that overrides base_url ("" for none)
  std::string api_key_env;    // the variable holding the key ("" when none is needed)
  std::string default_model;  // used when no model is named ("" = one must be named)
  std::vector<ModelEntry> models;

  // The model with this id, or nullptr.
  const ModelEntry* find(std::string_view id) const;
};

// What the loop needs to know of `entry`.
core::ModelInfo model_info(const ModelEntry& entry);

// OpenAI (its own service spoken to over the Responses API) and Anthropic.
const std::vector<ProviderEntry>& builtin_providers();

// The cost of `usage` at `prices`, in US dollars.
double cost_usd(const core::Usage& usage, const ModelPrices& prices);

}  // namespace nib::provider
