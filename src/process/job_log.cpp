#include "process/job_log.hpp"

#include <algorithm>

#include "process/limits.hpp"
#include "util/byte_size.hpp"
#include "util/fd_io.hpp"
#include "util/terminal_sanitize.hpp"
#include "util/utf8.hpp"

namespace nib::process {
namespace {

std::uint64_t newlines_in(std::string_view text) {
  return static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
}

std::string cap_note() {
  return "\n[nib: this log stops here, at " + util::format_count(kMaxLogBytes) +
         " bytes; the job went on, and job_output shows its latest output]\n";
}

}  // namespace

JobLog::JobLog(LogFile log) : fd_(std::move(log.fd)), path_(std::move(log.path)) {
  tail_.reserve(2 * kJobTailBytes);
}

void JobLog::append(std::string_view raw) {
  const std::size_t newline = raw.rfind('\n');
  if (newline == std::string_view::npos) {
    pending_.append(raw);
  } else if (pending_.empty()) {
    commit(util::sanitize_terminal_output(raw.substr(0, newline + 1)));
    pending_.assign(raw.substr(newline + 1));
  } else {
    pending_.append(raw.substr(0, newline + 1));
    commit(util::sanitize_terminal_output(pending_));
    pending_.assign(raw.substr(newline + 1));
  }
  if (pending_.size() > kJobPendingLineBytes) flush_partial_line();
}

void JobLog::flush_partial_line() {
  if (pending_.empty()) return;
  // Keep an unfinished UTF-8 character for the next bytes rather than cut it in two.
  const std::size_t whole = util::utf8_prefix_length(pending_, pending_.size());
  commit(util::sanitize_terminal_output(std::string_view(pending_).substr(0, whole)));
  pending_.erase(0, whole);
}

void JobLog::commit(std::string_view clean) {
  if (clean.empty()) return;
  total_bytes_ += clean.size();
  total_lines_ += newlines_in(clean);
  if (clean.size() >= kJobTailBytes) {
    tail_.assign(clean.substr(clean.size() - kJobTailBytes));
  } else {
    // Trimmed to kJobTailBytes only when it would pass twice that: each byte is moved at most
    // once on average, and the memory reserved at the start is never outgrown.
    if (tail_.size() + clean.size() > 2 * kJobTailBytes) {
      tail_.erase(0, tail_.size() + clean.size() - kJobTailBytes);
    }
    tail_.append(clean);
  }
  write_file(clean);
}

void JobLog::write_file(std::string_view clean) {
  if (!fd_.valid() || log_stopped_) return;
  const std::size_t room = kMaxLogBytes - static_cast<std::size_t>(logged_bytes_);
  const std::size_t part = util::utf8_prefix_length(clean, std::min(room, clean.size()));
  const bool written = util::write_all(fd_.get(), clean.substr(0, part));
  if (written) logged_bytes_ += part;
  if (!written || part < clean.size()) {
    log_stopped_ = true;
    if (written) util::write_all(fd_.get(), cap_note());
    fd_.reset();
  }
}

JobLogSlice JobLog::since(JobLogPosition from, std::size_t max_bytes, std::size_t max_lines) const {
  JobLogSlice slice;
  slice.end = end();
  const std::uint64_t tail_start = total_bytes_ - tail_.size();
  const std::uint64_t start = std::max(from.bytes, tail_start);
  std::string_view text =
      std::string_view(tail_).substr(static_cast<std::size_t>(start - tail_start));
  bool cut = start > from.bytes;
  if (text.size() > max_bytes) {
    text.remove_prefix(text.size() - max_bytes);
    cut = true;
  }
  std::size_t lines = static_cast<std::size_t>(newlines_in(text));
  while (lines > max_lines) {
    text.remove_prefix(text.find('\n') + 1);
    --lines;
    cut = false;  // now at a line start
  }
  if (cut) {
    // Cut inside a line: show from the next line start, unless the text is all one line.
    const std::size_t newline = text.find('\n');
    if (newline != std::string_view::npos && newline + 1 < text.size()) {
      text.remove_prefix(newline + 1);
    } else {
      // Not inside a character either.
      while (!text.empty() && (static_cast<unsigned char>(text.front()) & 0xC0) == 0x80) {
        text.remove_prefix(1);
      }
    }
  }
  slice.text.assign(text);
  slice.shown_from = {total_bytes_ - text.size(), total_lines_ - newlines_in(text)};
  slice.left_out = slice.shown_from.bytes - from.bytes;
  return slice;
}

std::vector<std::string> JobLog::last_lines(std::size_t count) const {
  std::string text = tail_ + util::sanitize_terminal_output(pending_);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  std::vector<std::string> lines;
  std::size_t end = text.size();
  while (lines.size() < count && end > 0) {
    const std::size_t newline = text.rfind('\n', end - 1);
    const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
    lines.emplace_back(text.substr(begin, end - begin));
    if (newline == std::string::npos) break;
    end = newline;
  }
  std::reverse(lines.begin(), lines.end());
  return lines;
}

}  // namespace nib::process
