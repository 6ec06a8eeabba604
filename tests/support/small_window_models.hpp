#pragma once
// A models.json for the tests that need compaction soon: a provider "small" at `base_url` (the
// mock model server's) whose one model `model` has a 3,000-token window.

#include <string>

#include <nlohmann/json.hpp>

namespace nib::testing {

inline std::string small_window_models(const std::string& base_url,
                                       const std::string& api = "openai-chat",
                                       const std::string& model = "tiny") {
  return nlohmann::json{{"providers",
                         {{"small",
                           {{"api", api},
                            {"baseUrl", base_url},
                            {"defaultModel", model},
                            {"models", {{{"id", model}, {"contextWindow", 3000}}}}}}}}}
      .dump();
}

}  // namespace nib::testing
