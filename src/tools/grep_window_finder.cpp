// ClassWindowFinder (declared in grep_window.hpp): the vector scan for a window's occurrences.

#include "tools/grep_window.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace nib::tools {
namespace {

constexpr std::size_t kNone = std::string_view::npos;

// The set as ranges of consecutive bytes, or nullopt when it needs more than `most`.
std::optional<std::vector<std::pair<unsigned char, unsigned char>>> ranges_of(const ByteSet& set,
                                                                              std::size_t most) {
  std::vector<std::pair<unsigned char, unsigned char>> ranges;
  for (unsigned byte = 0; byte < 256; ++byte) {
    if (!set[byte]) continue;
    unsigned high = byte;
    while (high + 1 < 256 && set[high + 1]) ++high;
    if (ranges.size() == most) return std::nullopt;
    ranges.emplace_back(static_cast<unsigned char>(byte), static_cast<unsigned char>(high));
    byte = high;
  }
  return ranges;
}

#if defined(__SSE2__)
// A probe's ranges as vectors, as many as the probe with the most, so that one scan loop tests
// them all.
struct VectorProbe {
  std::size_t offset = 0;
  __m128i low[ClassWindowFinder::kMaxProbeRanges];
  __m128i width[ClassWindowFinder::kMaxProbeRanges];
};

// Which of 16 bytes lie in the probe's first kRanges ranges, as a mask of 0xFF bytes.
template <std::size_t kRanges>
__m128i in_probe(__m128i bytes, const VectorProbe& probe) {
  __m128i in = _mm_setzero_si128();
  for (std::size_t r = 0; r < kRanges; ++r) {
    // low <= byte <= low + width exactly when byte - low, wrapping, is at most width.
    const __m128i shifted = _mm_sub_epi8(bytes, probe.low[r]);
    in = _mm_or_si128(in, _mm_cmpeq_epi8(_mm_min_epu8(shifted, probe.width[r]), shifted));
  }
  return in;
}

// Tests 16 candidate starts a step from `start` against kProbes probes of kRanges ranges each
// (fixed at compile time, so the loops unroll), advancing `start` to where the step-wise test
// stops; a candidate that passes goes to `verify`. The first one verified, or nullptr. The loads
// end inside the text since each start up to `last` leaves room for the window.
template <std::size_t kProbes, std::size_t kRanges, typename Verify>
const char* scan_steps(const char*& start, const char* last, const VectorProbe* probes,
                       const Verify& verify) {
  const auto load = [](const char* at) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
  };
  for (; last - start >= 15; start += 16) {
    __m128i all = in_probe<kRanges>(load(start + probes[0].offset), probes[0]);
    // The first probe is the rarest: most steps end here.
    if constexpr (kProbes > 1) {
      if (_mm_movemask_epi8(all) == 0) continue;
      for (std::size_t p = 1; p < kProbes; ++p) {
        all = _mm_and_si128(all, in_probe<kRanges>(load(start + probes[p].offset), probes[p]));
      }
    }
    auto candidates = static_cast<unsigned>(_mm_movemask_epi8(all));
    for (; candidates != 0; candidates &= candidates - 1) {
      const char* candidate = start + __builtin_ctz(candidates);
      if (verify(candidate)) return candidate;
    }
  }
  return nullptr;
}

// scan_steps() for kProbes probes of up to `ranges` (1 to 3) ranges each.
template <std::size_t kProbes, typename Verify>
const char* scan_ranges(std::size_t ranges, const char*& start, const char* last,
                        const VectorProbe* probes, const Verify& verify) {
  switch (ranges) {
    case 1:
      return scan_steps<kProbes, 1>(start, last, probes, verify);
    case 2:
      return scan_steps<kProbes, 2>(start, last, probes, verify);
    default:
      return scan_steps<kProbes, 3>(start, last, probes, verify);
  }
}

// scan_steps() for `count` (1 to 3) probes of up to `ranges` (1 to 3) ranges each.
template <typename Verify>
const char* scan_vectors(std::size_t count, std::size_t ranges, const char*& start,
                         const char* last, const VectorProbe* probes, const Verify& verify) {
  switch (count) {
    case 1:
      return scan_ranges<1>(ranges, start, last, probes, verify);
    case 2:
      return scan_ranges<2>(ranges, start, last, probes, verify);
    default:
      return scan_ranges<3>(ranges, start, last, probes, verify);
  }
}
#endif

}  // namespace

ClassWindowFinder::ClassWindowFinder(ClassWindow window) : window_(std::move(window)) {
  const std::size_t size = window_.positions.size();
  std::vector<double> frequencies;
  for (const ByteSet& set : window_.positions) frequencies.push_back(set_frequency(set));
  std::vector<bool> chosen(size, false);
  // The probes: the rarest positions that vector compares can test, preferring sets unlike those
  // already chosen (the digits of a number come together; a digit and a '-' less so).
  while (probe_count_ < kMaxProbes) {
    std::size_t best = kNone;
    bool best_differs = false;
    std::vector<std::pair<unsigned char, unsigned char>> best_ranges;
    for (std::size_t i = 0; i < size; ++i) {
      if (chosen[i]) continue;
      const auto ranges = ranges_of(window_.positions[i], kMaxProbeRanges);
      if (!ranges || ranges->empty()) continue;  // an empty set is left to the scalar check
      bool differs = true;
      for (std::size_t p = 0; p < probe_count_; ++p) {
        differs = differs && window_.positions[probes_[p].offset] != window_.positions[i];
      }
      if (best == kNone || (differs && !best_differs) ||
          (differs == best_differs && frequencies[i] < frequencies[best])) {
        best = i;
        best_differs = differs;
        best_ranges = *ranges;
      }
    }
    if (best == kNone) break;
    chosen[best] = true;
    Probe& probe = probes_[probe_count_++];
    probe.offset = best;
    probe.ranges = best_ranges.size();
    for (std::size_t r = 0; r < best_ranges.size(); ++r) {
      probe.low[r] = best_ranges[r].first;
      probe.width[r] = static_cast<unsigned char>(best_ranges[r].second - best_ranges[r].first);
    }
    candidate_frequency_ *= frequencies[best];
    order_.push_back(best);
  }
  std::vector<std::size_t> rest;
  for (std::size_t i = 0; i < size; ++i) {
    if (!chosen[i]) rest.push_back(i);
  }
  std::stable_sort(rest.begin(), rest.end(),
                   [&](std::size_t a, std::size_t b) { return frequencies[a] < frequencies[b]; });
  order_.insert(order_.end(), rest.begin(), rest.end());
}

bool ClassWindowFinder::matches_at(const char* start, std::size_t first) const {
  for (std::size_t k = first; k < order_.size(); ++k) {
    const std::size_t offset = order_[k];
    if (!window_.positions[offset][static_cast<unsigned char>(start[offset])]) return false;
  }
  return true;
}

std::size_t ClassWindowFinder::find(std::string_view text, std::size_t from) const {
  const std::size_t size = window_.positions.size();
  if (from > text.size() || text.size() - from < size) return kNone;
  const char* start = text.data() + from;
  const char* const last = text.data() + text.size() - size;  // the last place a window starts
#if defined(__SSE2__)
  if (probe_count_ > 0) {
    VectorProbe probes[kMaxProbes];
    std::size_t ranges = 1;
    for (std::size_t p = 0; p < probe_count_; ++p) {
      probes[p].offset = probes_[p].offset;
      for (std::size_t r = 0; r < kMaxProbeRanges; ++r) {
        // Ranges past the probe's own repeat its last: a range tested twice changes nothing.
        const std::size_t own = std::min(r, probes_[p].ranges - 1);
        probes[p].low[r] = _mm_set1_epi8(static_cast<char>(probes_[p].low[own]));
        probes[p].width[r] = _mm_set1_epi8(static_cast<char>(probes_[p].width[own]));
      }
      ranges = std::max(ranges, probes_[p].ranges);
    }
    const auto verify = [this](const char* candidate) {
      return matches_at(candidate, probe_count_);
    };
    const char* hit = scan_vectors(probe_count_, ranges, start, last, probes, verify);
    if (hit != nullptr) return static_cast<std::size_t>(hit - text.data());
  }
#endif
  for (; start <= last; ++start) {
    if (matches_at(start, 0)) return static_cast<std::size_t>(start - text.data());
  }
  return kNone;
}

}  // namespace nib::tools
