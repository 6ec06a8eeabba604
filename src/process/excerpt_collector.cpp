#include "process/excerpt_collector.hpp"

#include <algorithm>
#include <cstring>

#include "process/failure_lines.hpp"
#include "util/terminal_sanitize.hpp"
#include "util/utf8.hpp"

namespace nib::process {
namespace {

bool is_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (byte < 0x20 && c != '\t') || byte == 0x7F;
}

// Escape sequences, carriage returns and other controls change what a line says; lines without
// them (nearly all) are classified as they are, without a copy. Every line passes here, so eight
// bytes are tested at once for one below 0x20 or equal to 0x7F (a tab makes a false alarm that
// the byte loop settles).
bool has_control_characters(std::string_view text) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
  std::size_t pos = 0;
  for (; pos + 8 <= text.size(); pos += 8) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + pos, sizeof word);
    // The high bit ends up set in a byte below 0x20 (the subtraction wraps it) or equal to 0x7F
    // (the addition carries into it), never in a byte of UTF-8 text, whose own high bit ~word
    // clears; a borrow or carry between bytes only raises a false alarm.
    const std::uint64_t below_space = (word - kOnes * 0x20) & ~word;
    const std::uint64_t is_delete = (word + kOnes) & ~word;
    if (((below_space | is_delete) & kHighBits) != 0) break;
  }
  return std::any_of(text.begin() + static_cast<std::ptrdiff_t>(pos), text.end(), is_control);
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t") == text.npos;
}

// `text` without the character its cut split, which would show as U+FFFD.
std::string_view without_split_character(std::string_view text) {
  for (std::size_t lead = text.size(); lead > 0 && text.size() - lead < 4;) {
    --lead;
    const auto byte = static_cast<unsigned char>(text[lead]);
    if ((byte & 0xC0) == 0x80) continue;  // a continuation byte: look further back
    const bool split = byte >= 0xC0 && util::utf8_sequence_length(text, lead) == 0;
    return split ? text.substr(0, lead) : text;
  }
  return text;
}

}  // namespace

ExcerptCollector::ExcerptCollector(ExcerptLimits limits)
    : limits_(limits), recent_(limits.lines_before) {}

std::uint64_t ExcerptCollector::append(std::string_view bytes) {
  if (finished_) return 0;
  std::uint64_t completed = 0;
  while (!bytes.empty()) {
    const auto* newline = static_cast<const char*>(std::memchr(bytes.data(), '\n', bytes.size()));
    const std::size_t length =
        newline == nullptr ? bytes.size() : static_cast<std::size_t>(newline - bytes.data());
    if (line_.size() < limits_.kept_line_bytes) {
      line_.append(bytes.data(), std::min(length, limits_.kept_line_bytes - line_.size()));
    }
    line_bytes_ += length;
    if (newline == nullptr) break;
    end_line();
    ++completed;
    bytes.remove_prefix(length + 1);
  }
  return completed;
}

void ExcerptCollector::finish() {
  if (finished_) return;
  if (line_bytes_ > 0) end_line();
  close_open();
  finished_ = true;
}

std::string_view ExcerptCollector::readable_line() {
  if (!has_control_characters(line_)) return line_;
  readable_ = util::sanitize_terminal_output(line_);
  return readable_;
}

KeptLine ExcerptCollector::keep(std::uint64_t number, std::string_view raw, bool cut,
                                bool failure) const {
  return {number, util::sanitize_terminal_output(cut ? without_split_character(raw) : raw), cut,
          failure};
}

void ExcerptCollector::end_line() {
  ++complete_lines_;
  const bool cut = line_bytes_ > line_.size();
  const std::string_view readable = readable_line();
  const bool failure = looks_like_failure(readable);
  if (failure) ++failure_lines_;
  if (head_.size() < limits_.head_lines) {
    head_.push_back(keep(complete_lines_, line_, cut, failure));
  }
  if (!extend_open(readable, cut, failure)) {
    if (failure) {
      open_excerpt(cut);
    } else {
      remember_recent(cut);
    }
  }
  line_.clear();
  line_bytes_ = 0;
}

bool ExcerptCollector::extend_open(std::string_view readable, bool cut, bool failure) {
  if (!open_) return false;
  OpenExcerpt& open = *open_;
  const std::uint64_t number = complete_lines_;
  const bool room =
      open.ending.empty() && open.lines.size() + limits_.end_lines < limits_.max_lines;
  if (failure) {
    // A failure starts the next excerpt when this one could not also keep the lines after it.
    if (!room) {
      close_open();
      return false;
    }
    open.lines.push_back(keep(number, line_, cut, true));
    open.last_failure = number;
    open.after_left = limits_.lines_after;
    return true;
  }
  const bool belongs = open.after_left > 0 || (number - open.last_failure <= limits_.max_span &&
                                               continues_block(readable));
  if (!belongs) {
    close_open();
    return false;
  }
  if (open.after_left > 0) --open.after_left;
  if (room) {
    open.lines.push_back(keep(number, line_, cut, false));
  } else if (limits_.end_lines > 0 && !is_blank(readable)) {
    if (open.ending.size() == limits_.end_lines) open.ending.erase(open.ending.begin());
    open.ending.push_back(keep(number, line_, cut, false));
  }
  return true;
}

void ExcerptCollector::open_excerpt(bool cut) {
  const std::uint64_t number = complete_lines_;
  if (excerpts_.size() >= limits_.max_excerpts) {
    ++failures_not_kept_;
    if (!first_failure_not_kept_) first_failure_not_kept_ = number;
    return;
  }
  OpenExcerpt open;
  // The ring's oldest slot is the next to be written; only the lines right before count, and
  // a blank one tells nothing.
  for (std::size_t i = 0; i < recent_.size(); ++i) {
    RecentLine& recent = recent_[(recent_next_ + i) % recent_.size()];
    if (recent.number == 0 || recent.number + limits_.lines_before < number ||
        is_blank(recent.raw)) {
      continue;
    }
    open.lines.push_back(keep(recent.number, recent.raw, recent.cut, false));
    recent.number = 0;
  }
  open.lines.push_back(keep(number, line_, cut, true));
  open.last_failure = number;
  open.after_left = limits_.lines_after;
  open_ = std::move(open);
}

void ExcerptCollector::close_open() {
  if (!open_) return;
  for (KeptLine& line : open_->ending) open_->lines.push_back(std::move(line));
  excerpts_.push_back(std::move(open_->lines));
  open_.reset();
}

void ExcerptCollector::remember_recent(bool cut) {
  if (recent_.empty()) return;
  RecentLine& slot = recent_[recent_next_];
  slot.number = complete_lines_;
  slot.raw.swap(line_);  // line_ is cleared next; the slot's old buffer is reused
  slot.cut = cut;
  recent_next_ = (recent_next_ + 1) % recent_.size();
}

}  // namespace nib::process
