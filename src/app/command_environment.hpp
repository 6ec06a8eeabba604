#pragma once
// What the commands a model runs may see of nib's environment: all of it except the model
// services' API keys nib knows of (the built-in providers' and every apiKeyEnv of models.json),
// which a prompt-injected `env` would otherwise copy into the conversation and the session
// file, and except what settings.json's "env.withhold" adds; "env.passThrough" gives names
// back. Pure.

#include <string>
#include <vector>

#include "app/settings.hpp"

namespace nib::app {

// The names of the variables commands do not get, sorted, each once.
std::vector<std::string> withheld_environment(const Configuration& configuration);

}  // namespace nib::app
