#include "tools/grep_search.hpp"

#include <unistd.h>

#include <re2/re2.h>

#include <cerrno>
#include <cstring>

#include "util/utf8.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace nib::tools {
namespace {

constexpr std::size_t kNone = std::string_view::npos;

// Required literals shorter than this are not used to find candidate lines.
constexpr std::size_t kMinPrefilterBytes = 2;

// A required window is used to find candidate lines only when it is expected at most this often
// (a share of text positions, see window_frequency()): rarely enough that jumping to it and
// running the regex on its lines beats running the regex over everything, even though the
// estimate is low for classes whose bytes come in runs, like digits...
constexpr double kMaxWindowFrequency = 1e-4;
// ...and when the positions its vector test compares pass rarely enough that checking the rest
// of the window at each candidate costs less than the test itself.
constexpr double kMaxWindowCandidateFrequency = 1.0 / 256;
// A window is preferred to a required literal when it is expected this many times less often:
// the literal's search is a little faster per byte.
constexpr double kWindowAdvantage = 100;

// A cut line shows this much before its first match, so the match is seen in its setting.
constexpr std::size_t kShownLeadBytes = 100;

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // …

// The number of '\n' bytes in data[0, size): this runs over every block of a large file, so it
// counts 16 bytes a step where the CPU allows.
std::size_t count_newlines(const char* data, std::size_t size) {
  std::size_t count = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  while (size - i >= 16) {
    // Per-byte counters (0 - (-1) per hit) for at most 255 steps, then summed by _mm_sad_epu8.
    __m128i counters = _mm_setzero_si128();
    const std::size_t steps = std::min<std::size_t>((size - i) / 16, 255);
    for (std::size_t step = 0; step < steps; ++step, i += 16) {
      const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
      counters = _mm_sub_epi8(counters, _mm_cmpeq_epi8(chunk, newline));
    }
    const __m128i sums = _mm_sad_epu8(counters, _mm_setzero_si128());
    count += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
             static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
  }
#endif
  for (; i < size; ++i) count += data[i] == '\n';
  return count;
}

// The start of the line holding text[at], looking no further back than `floor` (a line start).
std::size_t line_start(std::string_view text, std::size_t floor, std::size_t at) {
  if (at <= floor) return floor;
  const void* newline = memrchr(text.data() + floor, '\n', at - floor);
  return newline == nullptr
             ? floor
             : static_cast<std::size_t>(static_cast<const char*>(newline) - text.data()) + 1;
}

// The end of the line holding text[at]: the offset of its '\n', or text.size().
std::size_t line_end(std::string_view text, std::size_t at) {
  if (at >= text.size()) return text.size();
  const void* newline = std::memchr(text.data() + at, '\n', text.size() - at);
  return newline == nullptr
             ? text.size()
             : static_cast<std::size_t>(static_cast<const char*>(newline) - text.data());
}

// A finder for a window of byte classes that every match of `pattern` holds, when searching for
// it is expected to beat both running RE2 over everything and searching for `piece` (a required
// literal, if there is one).
std::optional<ClassWindowFinder> window_prefilter(std::string_view pattern, bool ignore_case,
                                                  const std::optional<std::string>& piece) {
  auto window = required_window(pattern, ignore_case);
  if (!window) return std::nullopt;
  const double frequency = window_frequency(*window);
  if (frequency > kMaxWindowFrequency ||
      (piece && frequency * kWindowAdvantage >= literal_frequency(*piece, ignore_case))) {
    return std::nullopt;
  }
  ClassWindowFinder finder(std::move(*window));
  if (finder.candidate_frequency() > kMaxWindowCandidateFrequency) return std::nullopt;
  return finder;
}

}  // namespace

util::Result<LineMatcher> LineMatcher::compile(std::string_view pattern,
                                               const MatchOptions& options) {
  LineMatcher matcher;
  if (options.literal && !options.ignore_case && !pattern.empty()) {
    matcher.literal_.emplace(std::string(pattern));
    return matcher;
  }
  RE2::Options re2_options;
  re2_options.set_log_errors(false);
  re2_options.set_case_sensitive(!options.ignore_case);
  re2_options.set_literal(options.literal);
  // Never match "\n", even through \s or [^a]: whole buffers are searched, and a match must stay
  // on its line.
  re2_options.set_never_nl(true);
  // (?m): ^ and $ match at every line boundary of the buffer, as they would on each line alone.
  const std::string full = options.literal ? std::string(pattern) : "(?m)" + std::string(pattern);
  auto regex = std::make_shared<const RE2>(full, re2_options);
  if (!regex->ok()) {
    // RE2's message about the pattern as written, not about the "(?m)" added to it.
    const RE2 plain(std::string(pattern), re2_options);
    return util::Result<LineMatcher>::failure(plain.ok() ? regex->error() : plain.error());
  }
  // RE2 compiles the reverse program (used to find where a match starts) on first use, and a
  // failure there would read as "no match"; compile it now and report it.
  if (regex->ReverseProgramSize() < 0) {
    return util::Result<LineMatcher>::failure("pattern too large - reverse compile failed");
  }
  matcher.regex_ = std::move(regex);
  // A piece of text every match holds lets the search skip to the lines holding it. Without
  // case folding it is compared byte for byte; with it, only the part that folds within ASCII.
  auto piece = options.literal ? std::optional<std::string>(pattern) : required_literal(pattern);
  if (piece && options.ignore_case) piece = fold_safe_run(*piece);
  // A single byte finds too many lines to beat running RE2 over the whole buffer.
  if (piece && piece->size() < kMinPrefilterBytes) piece.reset();
  // Failing that, or better than that, a window of byte classes every match holds.
  if (!options.literal) matcher.window_ = window_prefilter(pattern, options.ignore_case, piece);
  if (piece && !matcher.window_) matcher.literal_.emplace(std::move(*piece), options.ignore_case);
  return matcher;
}

std::optional<MatchSpan> LineMatcher::find(std::string_view text, std::size_t from) const {
  if (from >= text.size()) return std::nullopt;  // no line starts there
  if (!regex_) {
    const std::size_t hit = literal_->find(text, from);
    if (hit == kNone) return std::nullopt;
    return MatchSpan{hit, hit + literal_->needle().size()};
  }
  const re2::StringPiece whole(text.data(), text.size());
  re2::StringPiece match;
  if (!literal_ && !window_) {
    if (!regex_->Match(whole, from, text.size(), RE2::UNANCHORED, &match, 1)) return std::nullopt;
    const auto begin = static_cast<std::size_t>(match.data() - text.data());
    // An empty match after the final '\n' would be on a line that does not exist.
    if (begin == text.size() && text.back() == '\n') return std::nullopt;
    return MatchSpan{begin, begin + match.size()};
  }
  // Jump between lines holding the required literal or window; run the regex on those lines only.
  for (std::size_t pos = from; pos < text.size();) {
    const std::size_t hit = literal_ ? literal_->find(text, pos) : window_->find(text, pos);
    if (hit == kNone) return std::nullopt;
    const std::size_t start = line_start(text, pos, hit);
    const std::size_t end = line_end(text, hit);
    if (regex_->Match(whole, start, end, RE2::UNANCHORED, &match, 1)) {
      const auto begin = static_cast<std::size_t>(match.data() - text.data());
      return MatchSpan{begin, begin + match.size()};
    }
    pos = end + 1;
  }
  return std::nullopt;
}

void ScanBuffer::reserve(std::size_t size, std::size_t keep) {
  if (size <= capacity_) return;
  const std::size_t capacity = std::max(size, capacity_ * 2);
  auto data = std::make_unique_for_overwrite<char[]>(capacity);
  if (keep > 0) std::memcpy(data.get(), data_.get(), keep);
  data_ = std::move(data);
  capacity_ = capacity;
}

std::string shown_line_text(std::string_view line, std::optional<MatchSpan> match, bool& cut) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  cut = line.size() > kGrepShownLineBytes;
  if (!cut) return util::sanitize_utf8(line);
  std::size_t start = 0;
  if (match && match->begin > kShownLeadBytes) start = match->begin - kShownLeadBytes;
  start = std::min(start, line.size() - kGrepShownLineBytes);
  // Begin on a character, not inside one.
  while (start > 0 && start < line.size() &&
         (static_cast<unsigned char>(line[start]) & 0xC0) == 0x80) {
    ++start;
  }
  const std::string_view rest = line.substr(start);
  const std::size_t length = util::utf8_prefix_length(rest, kGrepShownLineBytes);
  std::string text;
  if (start > 0) text += kEllipsis;
  text += util::sanitize_utf8(rest.substr(0, length));
  if (start + length < line.size()) text += kEllipsis;
  return text;
}

namespace {

// One file's scan: the buffer holds [kept_start, filled) of the file's bytes that matter now:
// up to `context` lines already searched (for the next match's before-context), then the lines
// still to search.
class Scanner {
 public:
  Scanner(const LineMatcher& matcher, const ScanOptions& options, ScanBuffer& buffer)
      : matcher_(matcher), options_(options), buffer_(buffer) {}

  FileScan run(const BlockReader& read, std::stop_token stop);

 private:
  std::string_view text(std::size_t end) const { return {buffer_.data(), end}; }

  // The 1-based number of the line holding the byte at `offset`; offsets asked for never
  // decrease (between compactions, which shift counted_pos_ along with the rest).
  std::size_t line_number_at(std::size_t offset) {
    counted_line_ += count_newlines(buffer_.data() + counted_pos_, offset - counted_pos_);
    counted_pos_ = offset;
    return counted_line_;
  }

  void search(std::size_t region_end);
  void on_match(std::size_t region_end, const MatchSpan& match, std::size_t start, std::size_t end);
  void keep_before(std::size_t start, std::size_t number);
  void keep_after(std::size_t limit);
  void keep(std::size_t number, std::size_t start, std::size_t end, std::optional<MatchSpan> match);
  void keep_context_for_next_block(bool line_was_split);
  void compact();

  const LineMatcher& matcher_;
  const ScanOptions& options_;
  ScanBuffer& buffer_;
  FileScan result_;

  std::size_t filled_ = 0;
  std::size_t kept_start_ = 0;   // a line start
  std::size_t search_from_ = 0;  // a line start, or the continuation of a split line
  std::size_t counted_pos_ = 0;
  std::size_t counted_line_ = 1;
  std::size_t last_kept_line_ = 0;   // 0: none yet
  std::size_t last_match_line_ = 0;  // 0: none yet
  std::size_t after_pending_ = 0;    // context lines still owed after the last kept match
  std::size_t after_from_ = 0;       // where they start
};

FileScan Scanner::run(const BlockReader& read, std::stop_token stop) {
  bool first_block = true;
  bool at_end = false;
  while (!at_end) {
    if (stop.stop_requested()) {
      result_.status = ScanStatus::kStopped;
      break;
    }
    compact();
    buffer_.reserve(filled_ + options_.block_bytes, filled_);
    const std::ptrdiff_t count = read(buffer_.data() + filled_, buffer_.capacity() - filled_);
    if (count < 0) {
      result_.status = ScanStatus::kReadError;
      result_.error_number = static_cast<int>(-count);
      break;
    }
    const auto size = static_cast<std::size_t>(count);
    const char* fresh = buffer_.data() + filled_;
    const void* nul = size == 0 ? nullptr : std::memchr(fresh, '\0', size);
    if (first_block && nul != nullptr) {
      result_.status = ScanStatus::kBinary;
      break;
    }
    first_block = false;
    filled_ += size;
    at_end = size == 0;
    if (nul != nullptr) {
      // Binary data from here on (as ripgrep does): search the whole lines before it, then stop.
      const auto nul_at = static_cast<std::size_t>(static_cast<const char*>(nul) - buffer_.data());
      filled_ = line_start(text(nul_at), search_from_, nul_at);
      result_.stopped_at_nul = true;
      at_end = true;
    }
    std::size_t region_end = filled_;
    bool split = false;
    if (!at_end) {
      const void* last_newline =
          memrchr(buffer_.data() + search_from_, '\n', filled_ - search_from_);
      if (last_newline != nullptr) {
        region_end =
            static_cast<std::size_t>(static_cast<const char*>(last_newline) - buffer_.data()) + 1;
      } else if (filled_ - search_from_ < options_.max_line_bytes) {
        continue;  // the line goes on: read more of it
      } else {
        split = true;
      }
    }
    search(region_end);
    search_from_ = region_end;
    if (!at_end) keep_context_for_next_block(split);
  }
  return std::move(result_);
}

void Scanner::search(std::size_t region_end) {
  const std::string_view region = text(region_end);
  for (std::size_t pos = search_from_; pos < region_end;) {
    const auto match = matcher_.find(region, pos);
    if (!match) break;
    const std::size_t start = line_start(region, pos, match->begin);
    const std::size_t end = line_end(region, match->begin);
    on_match(region_end, *match, start, end);
    pos = end + 1;
  }
  keep_after(region_end);
}

void Scanner::on_match(std::size_t region_end, const MatchSpan& match, std::size_t start,
                       std::size_t end) {
  keep_after(start);
  const std::size_t number = line_number_at(start);
  if (number == last_match_line_) return;  // the same line, split into pieces, matched again
  last_match_line_ = number;
  ++result_.matches;
  if (result_.kept_matches >= options_.max_kept_matches ||
      result_.kept_bytes >= options_.max_kept_bytes) {
    after_pending_ = 0;
    return;
  }
  keep_before(start, number);
  keep(number, start, end, MatchSpan{match.begin - start, match.end - start});
  ++result_.kept_matches;
  after_pending_ = options_.context;
  after_from_ = std::min(end + 1, region_end);
}

void Scanner::keep_before(std::size_t start, std::size_t number) {
  // Lines number-1, number-2, ... back to the context size, the last kept line or the start of
  // what the buffer still holds.
  const std::size_t wanted =
      std::min(options_.context, number - 1 - std::min(number - 1, last_kept_line_));
  std::vector<std::size_t> starts;
  std::size_t line = start;
  while (starts.size() < wanted && line > kept_start_) {
    line = line_start(text(filled_), kept_start_, line - 1);
    starts.push_back(line);
  }
  for (std::size_t i = starts.size(); i-- > 0;) {
    const std::size_t line_begin = starts[i];
    keep(number - 1 - i, line_begin, line_end(text(start), line_begin), std::nullopt);
  }
}

void Scanner::keep_after(std::size_t limit) {
  while (after_pending_ > 0 && after_from_ < limit) {
    const std::size_t end = line_end(text(limit), after_from_);
    keep(line_number_at(after_from_), after_from_, end, std::nullopt);
    --after_pending_;
    after_from_ = end + 1;
  }
}

void Scanner::keep(std::size_t number, std::size_t start, std::size_t end,
                   std::optional<MatchSpan> match) {
  if (number <= last_kept_line_) return;
  GrepLine line;
  line.number = number;
  line.is_match = match.has_value();
  line.text = shown_line_text(text(end).substr(start), match, line.cut);
  result_.kept_bytes += line.text.size();
  result_.lines.push_back(std::move(line));
  last_kept_line_ = number;
}

void Scanner::keep_context_for_next_block(bool line_was_split) {
  line_number_at(search_from_);  // count this block's lines before its bytes are dropped
  std::size_t keep_from = search_from_;
  if (!line_was_split) {
    for (std::size_t lines = 0; lines < options_.context && keep_from > kept_start_; ++lines) {
      keep_from = line_start(text(filled_), kept_start_, keep_from - 1);
    }
    // Context is a courtesy; it must not hold a second huge line in memory.
    if (search_from_ - keep_from > options_.max_line_bytes) keep_from = search_from_;
  }
  kept_start_ = keep_from;
  after_from_ = std::max(after_from_, search_from_);
}

void Scanner::compact() {
  if (kept_start_ == 0) return;
  std::memmove(buffer_.data(), buffer_.data() + kept_start_, filled_ - kept_start_);
  filled_ -= kept_start_;
  search_from_ -= kept_start_;
  counted_pos_ -= kept_start_;
  after_from_ -= kept_start_;
  kept_start_ = 0;
}

}  // namespace

FileScan scan_lines(const BlockReader& read, const LineMatcher& matcher, const ScanOptions& options,
                    std::stop_token stop, ScanBuffer& buffer) {
  return Scanner(matcher, options, buffer).run(read, stop);
}

FileScan scan_file(int fd, std::uint64_t expected_size, const LineMatcher& matcher,
                   const ScanOptions& options, std::stop_token stop, ScanBuffer& buffer) {
  std::uint64_t offset = 0;
  const BlockReader read = [&](char* data, std::size_t size) -> std::ptrdiff_t {
    if (expected_size > 0 && offset >= expected_size) return 0;
    while (true) {
      const ssize_t count = ::read(fd, data, size);
      if (count >= 0) {
        offset += static_cast<std::uint64_t>(count);
        return count;
      }
      if (errno != EINTR) return -errno;
    }
  };
  return scan_lines(read, matcher, options, stop, buffer);
}

}  // namespace nib::tools
