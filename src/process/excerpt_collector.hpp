#pragma once
// ExcerptCollector: while a command's output streams past, keeps what its digest needs from the
// part that will not stay in memory: the first lines, and excerpts around the lines that look
// like failures (tools/failure_lines.hpp), each line with its number in the whole stream. It
// also counts the lines. Memory is bounded by the limits below whatever the stream holds: a
// line is kept only up to kept_line_bytes, and at most max_excerpts excerpts of max_lines lines.
// Not thread-safe: one owner feeds it and reads it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "process/limits.hpp"

namespace nib::process {

// One line kept from a stream, ready to show.
struct KeptLine {
  std::uint64_t number = 0;  // 1-based, in the whole stream
  std::string text;          // the line's start, free of escape sequences (terminal_sanitize)
  bool cut = false;          // the line is longer than `text`
  bool failure = false;      // it looks like a failure (otherwise it is context)
};

// Lines in ascending order; where numbers jump, lines were left out (the middle of a long
// traceback).
using Excerpt = std::vector<KeptLine>;

struct ExcerptLimits {
  std::size_t head_lines = kDigestHeadLines;
  std::size_t max_excerpts = kMaxExcerpts;
  std::size_t lines_before = kExcerptLinesBefore;
  std::size_t lines_after = kExcerptLinesAfter;
  std::size_t max_lines = kExcerptMaxLines;  // > end_lines
  std::size_t end_lines = kExcerptEndLines;
  std::size_t max_span = kExcerptMaxSpanLines;
  std::size_t kept_line_bytes = 4 * kDigestLineBytes;  // room for escape sequences and UTF-8
};

class ExcerptCollector {
 public:
  explicit ExcerptCollector(ExcerptLimits limits = {});

  // Adds bytes of the stream; returns the number of lines they completed (their newlines).
  std::uint64_t append(std::string_view bytes);
  // Ends the stream: an unfinished last line becomes a line, and the open excerpt is closed.
  // Call before reading head() and excerpts(); appending afterwards starts no new line.
  void finish();

  // Lines so far, counting an unfinished last line.
  std::uint64_t lines() const { return complete_lines_ + (line_bytes_ > 0 ? 1 : 0); }
  // The first head_lines lines.
  const std::vector<KeptLine>& head() const { return head_; }
  const std::vector<Excerpt>& excerpts() const { return excerpts_; }
  // Lines that looked like failures, and those of them no excerpt holds (max_excerpts was
  // reached), with the first such line's number.
  std::uint64_t failure_lines() const { return failure_lines_; }
  std::uint64_t failures_not_kept() const { return failures_not_kept_; }
  std::optional<std::uint64_t> first_failure_not_kept() const { return first_failure_not_kept_; }

 private:
  // An excerpt still growing.
  struct OpenExcerpt {
    Excerpt lines;
    std::vector<KeptLine> ending;  // once `lines` is full: the block's latest lines
    std::uint64_t last_failure = 0;
    std::size_t after_left = 0;  // lines still taken whatever they are
  };
  struct RecentLine {
    std::uint64_t number = 0;
    std::string raw;
    bool cut = false;
  };

  void end_line();
  // The current line as classified and shown: sanitised when it holds control characters.
  std::string_view readable_line();
  KeptLine keep(std::uint64_t number, std::string_view raw, bool cut, bool failure) const;
  // Adds the current line to the open excerpt when it belongs there; otherwise closes the
  // excerpt and returns false.
  bool extend_open(std::string_view readable, bool cut, bool failure);
  void open_excerpt(bool cut);
  void close_open();
  void remember_recent(bool cut);

  ExcerptLimits limits_;
  std::string line_;  // the current line's first bytes, up to kept_line_bytes
  std::uint64_t line_bytes_ = 0;
  std::string readable_;  // scratch for readable_line()
  std::uint64_t complete_lines_ = 0;
  bool finished_ = false;
  std::vector<KeptLine> head_;
  std::vector<RecentLine> recent_;  // ring of the last lines_before lines in no excerpt
  std::size_t recent_next_ = 0;
  std::optional<OpenExcerpt> open_;
  std::vector<Excerpt> excerpts_;
  std::uint64_t failure_lines_ = 0;
  std::uint64_t failures_not_kept_ = 0;
  std::optional<std::uint64_t> first_failure_not_kept_;
};

}  // namespace nib::process
