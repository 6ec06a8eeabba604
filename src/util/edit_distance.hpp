#pragma once
// How many typing mistakes apart two short strings are. Pure; thread-safe.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nib::util {

// The optimal-string-alignment distance between `a` and `b` (the fewest byte insertions,
// deletions, substitutions and swaps of two neighbouring bytes, each substring edited once)
// when it is at most `limit`, else limit + 1. Costs O(size * limit): only the band of
// alignments within `limit` is computed, so comparing a name against thousands stays cheap.
std::size_t bounded_edit_distance(std::string_view a, std::string_view b, std::size_t limit);

// The candidate closest to `name`, ignoring ASCII case, within `limit` mistakes (the first of
// equals); "" when none is that close. For "did you mean" suggestions.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates,
                         std::size_t limit);

}  // namespace nib::util
