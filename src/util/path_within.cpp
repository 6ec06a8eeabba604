#include "util/path_within.hpp"

#include <optional>

namespace nib::util {
namespace {

// Nothing when `path` is not within `base`; else whether it goes on below it. Empty components
// (a trailing slash) are skipped.
std::optional<bool> goes_below(const std::filesystem::path& base,
                               const std::filesystem::path& path) {
  auto at = path.begin();
  const auto skip_empty = [&] {
    while (at != path.end() && at->empty()) ++at;
  };
  for (const std::filesystem::path& component : base) {
    if (component.empty()) continue;
    skip_empty();
    if (at == path.end() || *at != component) return std::nullopt;
    ++at;
  }
  skip_empty();
  return at != path.end();
}

}  // namespace

bool is_within(const std::filesystem::path& base, const std::filesystem::path& path) {
  return goes_below(base, path).has_value();
}

bool is_strictly_within(const std::filesystem::path& base, const std::filesystem::path& path) {
  return goes_below(base, path).value_or(false);
}

}  // namespace nib::util
