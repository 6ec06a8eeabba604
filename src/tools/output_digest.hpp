#pragma once
// The digest of a stream too long to show whole: its first lines, its last lines and, between
// them, the excerpts around lines that look like failures (tools/excerpt_collector.hpp), within
// a byte budget. Excerpt lines carry their number in the full log as grep shows matches and
// context ("1234: " a line that looks like a failure, "1235- " a line around it); wherever lines
// were left out a marker says which:
//     … 12,345 lines left out (lines 41–12,385) …
// The last lines come first (the summary), then the first lines, then the excerpts in order
// while they fit; a line is shown once even when it belongs to several parts. Pure; thread-safe.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "process/excerpt_collector.hpp"
#include "tools/limits.hpp"

namespace nib::tools {

struct DigestSource {
  std::span<const process::KeptLine> head;  // the stream's first lines
  std::span<const process::Excerpt> excerpts;
  std::string_view tail;                // the stream's end as shown: whole lines, except...
  bool tail_starts_mid_line = false;    // ...that the first is only the end of a longer line
  std::uint64_t total_lines = 0;        // the last line of `tail` is this one
  std::uint64_t failures_not_kept = 0;  // failure lines in no excerpt (ExcerptCollector)
  std::optional<std::uint64_t> first_failure_not_kept;
};

struct DigestLimits {
  std::size_t max_bytes = process::kDigestMaxBytes;
  std::size_t head_lines = process::kDigestHeadLines;  // and at most a quarter of max_bytes
  std::size_t tail_lines = process::kDigestTailLines;  // and at most three eighths of max_bytes
  std::size_t line_bytes = process::kDigestLineBytes;
};

struct Digest {
  std::string text;  // lines and markers, each ending in "\n"
  std::size_t head_lines = 0;
  std::uint64_t tail_first = 0;    // the first of the last lines shown
  std::size_t excerpts_shown = 0;  // those with lines of their own (not all among the others)
  // Lines that look like failures but are in no excerpt shown (the budget or the collector's
  // limit left them out), and the first of them.
  std::uint64_t failures_left_out = 0;
  std::optional<std::uint64_t> first_failure_left_out;
};

Digest render_digest(const DigestSource& source, const DigestLimits& limits = {});

// "… 12,345 lines left out (lines 41–12,385) …" for the lines first..last, with its newline.
std::string left_out_marker(std::uint64_t first, std::uint64_t last);

}  // namespace nib::tools
