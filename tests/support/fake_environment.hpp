#pragma once
// An environment for configuration tests: a lookup function over a fixed map, a
// util::EnvLookup (unset and empty variables read as nullopt).

#include <map>
#include <optional>
#include <string>

#include "util/environment.hpp"

namespace nib::testing {

inline util::EnvLookup fake_environment(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> std::optional<std::string> {
    const auto it = values.find(name);
    if (it == values.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
}

}  // namespace nib::testing
