#include "app/command_environment.hpp"

#include <algorithm>

namespace nib::app {

std::vector<std::string> withheld_environment(const Configuration& configuration) {
  std::vector<std::string> names = configuration.settings.env_withhold;
  for (const auto& entry : configuration.providers) {
    if (!entry.api_key_env.empty()) names.push_back(entry.api_key_env);
  }
  const auto& passed = configuration.settings.env_pass_through;
  std::erase_if(names, [&passed](const std::string& name) {
    return std::find(passed.begin(), passed.end(), name) != passed.end();
  });
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace nib::app
