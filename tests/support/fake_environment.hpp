#pragma once
// An environment for configuration tests: a lookup function over a fixed map, in the shape of
// app::EnvLookup (unset and empty variables read as nullopt).

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace nib::testing {

inline std::function<std::optional<std::string>(const char*)> fake_environment(
    std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> std::optional<std::string> {
    const auto it = values.find(name);
    if (it == values.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
}

}  // namespace nib::testing
