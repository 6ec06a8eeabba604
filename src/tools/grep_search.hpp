#pragma once
// grep's search of one file. LineMatcher compiles a pattern once (RE2, so matching is linear in
// the text whatever the pattern) and finds matching lines in a buffer of whole lines: the buffer
// is searched as one text and line boundaries are found only around hits, never by running the
// regex line by line. scan_lines() / scan_file() read a file in blocks with line-aligned carry-over
// (memory stays bounded for any file size), skip binary files, and keep the matching lines with
// their context, cut for display.
//
// Why prefilters of our own (grep_literal, grep_window) in front of RE2: on bench/run search
// (71,000 files, 1.2 GB; median wall time of nib's prefilters / RE2 alone / Hyperscan scanning
// with RE2 confirming) a literal took 0.41 / 0.43 / 0.36 s, a regex holding a literal 0.45 /
// 0.52 / 0.40 s and a regex of classes 0.32 / 0.99 / 0.44 s. RE2 alone is three times slower on
// classes. Hyperscan, a tenth faster on the first two and a third slower on classes, costs what
// RE2 was chosen to avoid: hs_compile takes seconds on patterns a model writes
// (x.{0,500}y.{0,500}z: 4 s, RE2 5 ms) and cannot be interrupted; its UTF-8 mode is undefined on
// invalid UTF-8; and Debian builds it for amd64 only.
//
// Thread-safety: a LineMatcher is immutable after compile() and may be shared by any number of
// threads. A ScanBuffer belongs to one scan at a time. The scan functions share nothing else.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "tools/grep_literal.hpp"
#include "tools/grep_window.hpp"
#include "tools/limits.hpp"
#include "util/result.hpp"

namespace re2 {
class RE2;
}

namespace nib::tools {

struct MatchOptions {
  bool literal = false;      // the pattern is plain text, not a regex
  bool ignore_case = false;  // Unicode case folding
};

// Where a match lies, as byte offsets into the searched text.
struct MatchSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// A compiled pattern. Matches never span lines: "\n" is matched by nothing (not by \s, [^a] or
// a literal), and ^ and $ match at line boundaries.
class LineMatcher {
 public:
  // The matcher for `pattern`, or RE2's message for a bad regex. A pattern that needs a line
  // break compiles but never matches.
  static util::Result<LineMatcher> compile(std::string_view pattern, const MatchOptions& options);

  // The first match on a line that starts at or after `from`. `text` holds whole lines: `from`
  // is 0 or follows a '\n', and the end of `text` ends a line (after its '\n', or the end of a
  // last line without one). Bytes before `from` are context for ^ and \b only.
  std::optional<MatchSpan> find(std::string_view text, std::size_t from) const;

 private:
  LineMatcher() = default;

  std::shared_ptr<const re2::RE2> regex_;  // absent for a case-sensitive literal
  // The whole pattern when regex_ is absent; otherwise text every match contains (compared
  // ASCII-case-insensitively when ignoring case), searched first so that the regex runs only on
  // lines that hold it.
  std::optional<LiteralFinder> literal_;
  // Instead of literal_, when it is missing or much commoner: a window of byte classes every
  // match contains, used the same way.
  std::optional<ClassWindowFinder> window_;
};

// One line of a file as grep shows it.
struct GrepLine {
  std::size_t number = 0;  // 1-based
  bool is_match = false;   // false: a context line
  bool cut = false;        // longer than kGrepShownLineBytes; `text` shows part of it, with "…"
  std::string text;        // without the line end or a trailing "\r"; valid UTF-8
};

struct ScanOptions {
  std::size_t context = 0;  // lines kept before and after each kept match
  // Matching lines kept (with their context) until this many are kept or the kept text reaches
  // max_kept_bytes; later matches are only counted.
  std::size_t max_kept_matches = SIZE_MAX;
  std::size_t max_kept_bytes = SIZE_MAX;
  std::size_t block_bytes = kGrepBlockBytes;       // bytes asked of each read
  std::size_t max_line_bytes = kGrepMaxLineBytes;  // longer lines are searched in pieces
};

enum class ScanStatus {
  kDone,       // the whole file was searched (up to a NUL byte, see FileScan::stopped_at_nul)
  kBinary,     // the first block holds a NUL byte: nothing was searched
  kStopped,    // the stop token fired; the results so far are kept
  kReadError,  // a read failed; error_number says why; the results so far are kept
};

struct FileScan {
  ScanStatus status = ScanStatus::kDone;
  int error_number = 0;
  std::size_t matches = 0;      // matching lines found, kept or not
  std::vector<GrepLine> lines;  // kept matching lines and their context, in file order
  std::size_t kept_matches = 0;
  std::size_t kept_bytes = 0;  // of the texts in `lines`
  // A NUL byte after the first block ended the search there, as binary data follows.
  bool stopped_at_nul = false;
};

// Scratch memory for scans, reused from file to file so that searching many small files does not
// allocate for each. One scan at a time.
class ScanBuffer {
 public:
  char* data() { return data_.get(); }
  std::size_t capacity() const { return capacity_; }
  // Makes room for at least `size` bytes, keeping the first `keep` bytes.
  void reserve(std::size_t size, std::size_t keep);

 private:
  std::unique_ptr<char[]> data_;
  std::size_t capacity_ = 0;
};

// Reads up to `size` bytes into `data`: the number read, 0 at the end, or -errno.
using BlockReader = std::function<std::ptrdiff_t(char* data, std::size_t size)>;

// Searches the lines `read` delivers, checking `stop` between blocks.
FileScan scan_lines(const BlockReader& read, const LineMatcher& matcher, const ScanOptions& options,
                    std::stop_token stop, ScanBuffer& buffer);

// scan_lines() over an open file. With `expected_size` > 0 the scan ends once that many bytes
// are read, saving the read(2) that would report the end (a file growing meanwhile is searched
// as it was when its size was taken).
FileScan scan_file(int fd, std::uint64_t expected_size, const LineMatcher& matcher,
                   const ScanOptions& options, std::stop_token stop, ScanBuffer& buffer);

// How `line` (without its '\n') is shown: a trailing "\r" dropped, invalid UTF-8 replaced, and a
// line longer than kGrepShownLineBytes cut to about that many bytes around `match` (offsets in
// `line`; the start when absent) with "…" where text was left out. Sets `cut` accordingly.
std::string shown_line_text(std::string_view line, std::optional<MatchSpan> match, bool& cut);

}  // namespace nib::tools
