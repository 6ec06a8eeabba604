#pragma once
// `nib --list-models`: the configured providers and their models, with limits, abilities and
// prices, and whether each provider's key variable is set (never the key itself).

#include <ostream>

#include "app/settings.hpp"
#include "util/environment.hpp"

namespace nib::app {

void list_models(const Configuration& configuration, const util::EnvLookup& env, std::ostream& out);

}  // namespace nib::app
