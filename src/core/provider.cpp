#include "core/provider.hpp"

#include <array>

namespace nib::core {
namespace {

constexpr std::array<const char*, 4> kThinkingNames{"off", "low", "medium", "high"};

}  // namespace

const char* thinking_level_name(ThinkingLevel level) {
  return kThinkingNames.at(static_cast<std::size_t>(level));
}

std::optional<ThinkingLevel> parse_thinking_level(std::string_view name) {
  for (std::size_t i = 0; i < kThinkingNames.size(); ++i) {
    if (name == kThinkingNames[i]) return static_cast<ThinkingLevel>(i);
  }
  return std::nullopt;
}

}  // namespace nib::core
