#include "app/list_models.hpp"

#include <cstdio>
#include <string>

namespace nib::app {
namespace {

// 400000 -> "400k", 1047576 -> "1048k", 0 -> "?".
std::string tokens(int count) {
  if (count <= 0) return "?";
  if (count >= 1000) return std::to_string((count + 500) / 1000) + "k";
  return std::to_string(count);
}

std::string price(double per_million) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", per_million);
  return text;
}

std::string key_status(const provider::ProviderEntry& entry, const util::EnvLookup& env) {
  if (entry.api_key_env.empty()) return "no key needed";
  return entry.api_key_env + (env(entry.api_key_env.c_str()) ? " is set" : " is not set");
}

std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text + "  ";
}

}  // namespace

void list_models(const Configuration& configuration, const util::EnvLookup& env,
                 std::ostream& out) {
  for (const auto& entry : configuration.providers) {
    out << entry.name << " (" << provider::api_name(entry.api) << ", " << entry.base_url << "; "
        << key_status(entry, env) << ")\n";
    if (entry.models.empty()) {
      out << "  no models listed; name one with --model\n";
      continue;
    }
    out << "  " << padded("model", 26) << padded("context", 7) << padded("output", 6)
        << padded("images", 6) << padded("thinks", 6) << "$ per million tokens in/out\n";
    for (const auto& model : entry.models) {
      std::string name = model.id + (model.id == entry.default_model ? " *" : "");
      out << "  " << padded(name, 26) << padded(tokens(model.context_window), 7)
          << padded(tokens(model.max_output_tokens), 6) << padded(model.vision ? "yes" : "no", 6)
          << padded(model.reasoning ? "yes" : "no", 6) << price(model.prices.input) << " / "
          << price(model.prices.output) << '\n';
    }
  }
  out << "(* the provider's default model)\n";
}

}  // namespace nib::app
