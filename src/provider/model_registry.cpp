#include "provider/model_registry.hpp"

#include <array>
#include <initializer_list>

namespace nib::provider {
namespace {

constexpr std::array<std::pair<Api, const char*>, 3> kApiNames{{
    {Api::kOpenAIChat, "openai-chat"},
    {Api::kOpenAIResponses, "openai-responses"},
    {Api::kAnthropicMessages, "anthropic-messages"},
}};

// Figures from the services' model and pricing pages (as of November 2026; standard tier,
// prompts under OpenAI's 272k long-context surcharge). Cache writes are free at OpenAI
// (caching is automatic); Anthropic charges 1.25x input for a 5-minute cache write.
std::vector<ModelEntry> openai_models() {
  return {
      {"gpt-5.5", 1000000, 128000, true, true, {5.0, 30.0, 0.50, 0}},
      {"gpt-5.4", 1000000, 128000, true, true, {2.50, 15.0, 0.25, 0}},
      {"gpt-5.4-mini", 1000000, 128000, true, true, {0.75, 4.50, 0.075, 0}},
      {"gpt-5.4-nano", 1000000, 128000, true, true, {0.20, 1.25, 0.02, 0}},
      {"gpt-5", 400000, 128000, true, true, {1.25, 10.0, 0.125, 0}},
      {"gpt-5-mini", 400000, 128000, true, true, {0.25, 2.0, 0.025, 0}},
      {"gpt-4.1", 1047576, 32768, true, false, {2.0, 8.0, 0.50, 0}},
      {"o3", 200000, 100000, true, true, {2.0, 8.0, 0.50, 0}},
      {"o4-mini", 200000, 100000, true, true, {1.10, 4.40, 0.275, 0}},
  };
}

std::vector<ModelEntry> anthropic_models() {
  return {
      {"claude-opus-4-7", 1000000, 128000, true, true, {5.0, 25.0, 0.50, 6.25}},
      {"claude-sonnet-4-6", 1000000, 64000, true, true, {3.0, 15.0, 0.30, 3.75}},
      {"claude-haiku-4-5", 200000, 64000, true, true, {1.0, 5.0, 0.10, 1.25}},
      {"claude-opus-4-6", 1000000, 128000, true, true, {5.0, 25.0, 0.50, 6.25}},
      {"claude-opus-4-5", 200000, 64000, true, true, {5.0, 25.0, 0.50, 6.25}},
      {"claude-sonnet-4-5", 200000, 64000, true, true, {3.0, 15.0, 0.30, 3.75}},
  };
}

}  // namespace

const char* api_name(Api api) {
  for (const auto& [value, name] : kApiNames) {
    if (value == api) return name;
  }
  return "unknown";
}

std::optional<Api> parse_api(std::string_view name) {
  for (const auto& [value, known] : kApiNames) {
    if (name == known) return value;
  }
  return std::nullopt;
}

const ModelEntry* ProviderEntry::find(std::string_view id) const {
  for (const ModelEntry& model : models) {
    if (model.id == id) return &model;
  }
  return nullptr;
}

core::EditStyle edit_style_for(std::string_view model_id) {
  if (const std::size_t slash = model_id.rfind('/'); slash != std::string_view::npos) {
    model_id.remove_prefix(slash + 1);
  }
  // gpt-oss and gpt-4o were not trained on the patch format; Codex gives them other tools.
  for (const std::string_view family : {"gpt-5", "gpt-4.1", "o3", "o4"}) {
    if (model_id.starts_with(family)) return core::EditStyle::kPatch;
  }
  return model_id.find("codex") != std::string_view::npos ? core::EditStyle::kPatch
                                                          : core::EditStyle::kReplace;
}

core::ModelInfo model_info(const ModelEntry& entry) {
  return core::ModelInfo{
      entry.id,        entry.vision,         entry.max_output_tokens,
      entry.reasoning, entry.context_window, entry.edit_style.value_or(edit_style_for(entry.id))};
}

const std::vector<ProviderEntry>& builtin_providers() {
  static const std::vector<ProviderEntry> providers{
      {"openai", Api::kOpenAIResponses, "https://api.openai.com/v1", "OPENAI_BASE_URL",
       "OPENAI_API_KEY", "gpt-5.4", openai_models()},
      {"anthropic", Api::kAnthropicMessages, "https://api.anthropic.com", "ANTHROPIC_BASE_URL",
       "ANTHROPIC_API_KEY", "claude-sonnet-4-6", anthropic_models()},
  };
  return providers;
}

double cost_usd(const core::Usage& usage, const ModelPrices& prices) {
  const auto part = [](std::int64_t tokens, double per_million) {
    return static_cast<double>(tokens) * per_million / 1e6;
  };
  return part(usage.input_tokens, prices.input) + part(usage.output_tokens, prices.output) +
         part(usage.cache_read_tokens, prices.cache_read) +
         part(usage.cache_write_tokens, prices.cache_write);
}

}  // namespace nib::provider
