#pragma once
// The text a sink was shown: the TextDeltaEvents among `events`, joined. Pure; thread-safe.

#include <string>
#include <variant>
#include <vector>

#include "core/events.hpp"

namespace nib::testing {

inline std::string text_deltas(const std::vector<core::Event>& events) {
  std::string text;
  for (const auto& event : events) {
    if (const auto* delta = std::get_if<core::TextDeltaEvent>(&event)) text += delta->text;
  }
  return text;
}

}  // namespace nib::testing
