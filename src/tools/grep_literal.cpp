#include "tools/grep_literal.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tools/grep_pattern.hpp"
#include "util/utf8.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace nib::tools {
namespace {

// How common `byte` is; when folding case, a letter is as common as its commoner case.
std::uint8_t rank_of(char byte, bool fold = false) {
  const auto rank = [](char c) { return byte_rank(static_cast<unsigned char>(c)); };
  return fold ? std::max(rank(ascii_lower(byte)), rank(ascii_upper(byte))) : rank(byte);
}

// The index of the needle's rarest byte other than at `skip` (npos: none skipped), preferring a
// byte value unlike needle[skip]; the last one among equals.
std::size_t rarest_index(std::string_view needle, bool fold,
                         std::size_t skip = std::string_view::npos) {
  std::size_t best = std::string_view::npos;
  const auto better = [&](std::size_t i) {
    if (best == std::string_view::npos) return true;
    if (skip != std::string_view::npos) {
      const bool differs = needle[i] != needle[skip];
      const bool best_differs = needle[best] != needle[skip];
      if (differs != best_differs) return differs;
    }
    return rank_of(needle[i], fold) <= rank_of(needle[best], fold);
  };
  for (std::size_t i = 0; i < needle.size(); ++i) {
    if (i != skip && better(i)) best = i;
  }
  return best == std::string_view::npos ? skip : best;
}

// The lowest rank in `text`, which must not be empty.
std::uint8_t rarest_rank(std::string_view text) {
  return rank_of(text[rarest_index(text, false)]);
}

// Escapes that stand for a class of characters or a position, never for one character.
bool is_class_or_assertion_escape(char c) {
  return std::strchr("dDwWsSbBAz", c) != nullptr;
}

}  // namespace

LiteralFinder::LiteralFinder(std::string needle, bool fold_ascii_case)
    : needle_(std::move(needle)), fold_(fold_ascii_case) {
  if (fold_) {
    if (needle_.size() > kMaxPairNeedle) needle_.resize(kMaxPairNeedle);
    for (char& c : needle_) c = ascii_lower(c);
  }
  first_ = rarest_index(needle_, fold_);
  second_ = rarest_index(needle_, fold_, first_);
}

bool LiteralFinder::matches_at(const char* start) const {
  if (!fold_) return std::memcmp(start, needle_.data(), needle_.size()) == 0;
  for (std::size_t i = 0; i < needle_.size(); ++i) {
    if (ascii_lower(start[i]) != needle_[i]) return false;
  }
  return true;
}

std::size_t LiteralFinder::find(std::string_view text, std::size_t from) const {
  const std::size_t size = needle_.size();
  if (from > text.size() || text.size() - from < size) return std::string_view::npos;
  if (size > kMaxPairNeedle) {
    const void* hit = memmem(text.data() + from, text.size() - from, needle_.data(), size);
    return hit == nullptr ? std::string_view::npos
                          : static_cast<std::size_t>(static_cast<const char*>(hit) - text.data());
  }
  // A letter compares in either case once 0x20 is set in the text's byte.
  const char fold_first = fold_ && is_ascii_letter(needle_[first_]) ? 0x20 : 0;
  const char fold_second = fold_ && is_ascii_letter(needle_[second_]) ? 0x20 : 0;
  const char* start = text.data() + from;
  const char* const last = text.data() + text.size() - size;  // the last place a match can start
#if defined(__SSE2__)
  // 16 candidate starts a step; the loads end inside the text since each start leaves room for
  // the needle.
  const __m128i want_first = _mm_set1_epi8(needle_[first_]);
  const __m128i want_second = _mm_set1_epi8(needle_[second_]);
  const __m128i set_first = _mm_set1_epi8(fold_first);
  const __m128i set_second = _mm_set1_epi8(fold_second);
  for (; last - start >= 15; start += 16) {
    const __m128i at_first =
        _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(start + first_)), set_first);
    const __m128i at_second = _mm_or_si128(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(start + second_)), set_second);
    auto candidates = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(
        _mm_cmpeq_epi8(at_first, want_first), _mm_cmpeq_epi8(at_second, want_second))));
    for (; candidates != 0; candidates &= candidates - 1) {
      const char* candidate = start + __builtin_ctz(candidates);
      if (matches_at(candidate)) return static_cast<std::size_t>(candidate - text.data());
    }
  }
#endif
  for (; start <= last; ++start) {
    if ((start[first_] | fold_first) == needle_[first_] &&
        (start[second_] | fold_second) == needle_[second_] && matches_at(start)) {
      return static_cast<std::size_t>(start - text.data());
    }
  }
  return std::string_view::npos;
}

std::string fold_safe_run(std::string_view literal) {
  std::size_t best_start = 0;
  std::size_t best_length = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= literal.size(); ++i) {
    const bool safe = i < literal.size() && static_cast<unsigned char>(literal[i]) < 0x80 &&
                      !folds_beyond_ascii(literal[i]) && literal[i] != '\0';
    if (safe) continue;
    if (i - start > best_length) {
      best_start = start;
      best_length = i - start;
    }
    start = i + 1;
  }
  std::string run(literal.substr(best_start, best_length));
  for (char& c : run) c = ascii_lower(c);
  return run;
}

std::optional<std::string> required_literal(std::string_view pattern) {
  std::vector<std::string> runs;
  std::string run;
  const auto end_run = [&] {
    if (!run.empty()) runs.push_back(std::move(run));
    run.clear();
  };
  for (std::size_t i = 0; i < pattern.size();) {
    // One atom: its characters when it stands for exactly one, else nothing.
    std::string atom;
    const char c = pattern[i];
    if (ends_atom_reading(c)) return std::nullopt;
    switch (c) {
      case '(':
        // Inline flags such as (?i) change how the rest matches; plain and (?:...) groups are
        // skipped whole (they may hold alternations or be optional).
        if (i + 1 < pattern.size() && pattern[i + 1] == '?' &&
            !(i + 2 < pattern.size() && pattern[i + 2] == ':')) {
          return std::nullopt;
        }
        i = skip_group(pattern, i);
        break;
      case '[':
        i = skip_class(pattern, i);
        break;
      case '\\': {
        if (i + 1 >= pattern.size()) return std::nullopt;
        const auto escaped = static_cast<unsigned char>(pattern[i + 1]);
        if (escaped < 0x80 && !std::isalnum(escaped)) {
          atom.assign(1, pattern[i + 1]);  // an escaped punctuation character stands for itself
        } else if (!is_class_or_assertion_escape(pattern[i + 1])) {
          return std::nullopt;  // \n, \x41, \pL, \Q...\E and the like: not worth reading
        }
        i += 2;
        break;
      }
      case '.':
      case '^':
      case '$':
        ++i;
        break;
      default: {
        const std::size_t length = util::utf8_sequence_length(pattern, i);
        if (length == 0) return std::nullopt;
        atom = pattern.substr(i, length);
        i += length;
      }
    }
    if (i == std::string_view::npos) return std::nullopt;
    if (i < pattern.size() && is_quantifier_start(pattern[i])) {
      const auto quantifier = read_quantifier(pattern, i);
      if (!quantifier) return std::nullopt;
      // A repeated character is required once when it must appear at all, and ends the run
      // either way: what follows it need not be adjacent to the run.
      if (quantifier->minimum > 0) run += atom;
      end_run();
      i = quantifier->end;
      continue;
    }
    if (atom.empty()) {
      end_run();
    } else {
      run += atom;
    }
  }
  end_run();
  if (runs.empty()) return std::nullopt;
  std::size_t best = 0;
  for (std::size_t r = 1; r < runs.size(); ++r) {
    const auto rank = rarest_rank(runs[r]);
    const auto best_rank = rarest_rank(runs[best]);
    if (rank < best_rank || (rank == best_rank && runs[r].size() > runs[best].size())) best = r;
  }
  return runs[best];
}

}  // namespace nib::tools
