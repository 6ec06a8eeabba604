#include "app/command_environment.hpp"

#include <algorithm>

namespace nib::app {

std::vector<std::string> withheld_environment(const Configuration& configuration) {
  std::vector<std::string> names = configuration.api_key_variables();
  names.insert(names.end(), configuration.settings.env_withhold.begin(),
               configuration.settings.env_withhold.end());
  const auto& passed = configuration.settings.env_pass_through;
  std::erase_if(names, [&passed](const std::string& name) {
    return std::find(passed.begin(), passed.end(), name) != passed.end();
  });
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace nib::app
