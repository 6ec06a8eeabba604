#include "tools/output_digest.hpp"

#include <algorithm>
#include <vector>

#include "util/byte_size.hpp"
#include "util/utf8.hpp"

namespace nib::tools {
namespace {

constexpr std::string_view kCutMark = "…[line cut]";
constexpr std::string_view kCutStartMark = "[line cut]…";
// A cut line whose kept part shows nothing (NUL bytes, a binary dump).
constexpr std::string_view kNothingPrintable = "[a long line with nothing printable]";

// One shown line; `numbered` lines are excerpt lines and carry their number.
struct ShownLine {
  std::uint64_t number = 0;
  std::string text;
  bool numbered = false;
  bool failure = false;
};

// A line's start within max_bytes, marked when it is cut (or was cut before it got here).
std::string start_of(std::string_view text, bool cut, std::size_t max_bytes) {
  if (text.size() <= max_bytes && !cut) return std::string(text);
  if (text.empty()) return std::string(kNothingPrintable);
  return std::string(text.substr(0, util::utf8_prefix_length(text, max_bytes))) +
         std::string(kCutMark);
}

std::string_view suffix_of(std::string_view text, std::size_t max_bytes) {
  return text.substr(util::utf8_suffix_start(text, max_bytes));
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    if (newline == std::string_view::npos) {
      lines.push_back(text);
      break;
    }
    lines.push_back(text.substr(0, newline));
    text.remove_prefix(newline + 1);
  }
  return lines;
}

std::string render_line(const ShownLine& line) {
  if (!line.numbered) return line.text + "\n";
  return std::to_string(line.number) + (line.failure ? ": " : "- ") + line.text + "\n";
}

// Bytes of the marker between shown lines `before` and `after` (0 when they are adjacent).
std::size_t gap_bytes(std::uint64_t before, std::uint64_t after) {
  return after > before + 1 ? left_out_marker(before + 1, after - 1).size() : 0;
}

// The last lines, newest first, within their share of the budget. A last line whose start only
// the head still holds is shown with both ends.
std::vector<ShownLine> pick_tail(const DigestSource& source, const DigestLimits& limits) {
  const std::vector<std::string_view> lines = split_lines(source.tail);
  const std::size_t budget = limits.max_bytes * 3 / 8;
  const std::uint64_t count = std::min<std::uint64_t>(lines.size(), source.total_lines);
  std::vector<ShownLine> picked;
  std::size_t used = 0;
  for (std::size_t back = 0; back < count && picked.size() < limits.tail_lines; ++back) {
    const std::size_t index = lines.size() - 1 - back;
    const std::uint64_t number = source.total_lines - back;
    std::string text;
    if (index == 0 && source.tail_starts_mid_line) {
      const auto head =
          std::find_if(source.head.begin(), source.head.end(),
                       [&](const process::KeptLine& line) { return line.number == number; });
      if (head == source.head.end() || head->text.empty()) {
        const std::string_view end = suffix_of(lines[index], limits.line_bytes);
        text = end.empty() ? std::string(kNothingPrintable)
                           : std::string(kCutStartMark) + std::string(end);
      } else {
        const std::size_t half = limits.line_bytes / 2;
        text = start_of(head->text, true, half) + "…" + std::string(suffix_of(lines[index], half));
      }
    } else {
      text = start_of(lines[index], false, limits.line_bytes);
    }
    if (!picked.empty() && used + text.size() + 1 > budget) break;
    used += text.size() + 1;
    picked.push_back({number, std::move(text)});
  }
  return picked;
}

std::vector<ShownLine> pick_head(const DigestSource& source, const DigestLimits& limits,
                                 std::uint64_t tail_first) {
  const std::size_t budget = limits.max_bytes / 4;
  std::vector<ShownLine> picked;
  std::size_t used = 0;
  for (const process::KeptLine& line : source.head) {
    if (line.number >= tail_first || picked.size() == limits.head_lines) break;
    std::string text = start_of(line.text, line.cut, limits.line_bytes);
    if (used + text.size() + 1 > budget) break;
    used += text.size() + 1;
    picked.push_back({line.number, std::move(text)});
  }
  return picked;
}

std::size_t bytes_of(const std::vector<ShownLine>& lines) {
  std::size_t bytes = 0;
  for (const ShownLine& line : lines) bytes += render_line(line).size();
  return bytes;
}

}  // namespace

std::string left_out_marker(std::uint64_t first, std::uint64_t last) {
  const std::uint64_t count = last - first + 1;
  if (count == 1) return "… 1 line left out (line " + util::format_count(first) + ") …\n";
  return "… " + util::format_count(count) + " lines left out (lines " + util::format_count(first) +
         "–" + util::format_count(last) + ") …\n";
}

Digest render_digest(const DigestSource& source, const DigestLimits& limits) {
  std::vector<ShownLine> tail = pick_tail(source, limits);
  std::reverse(tail.begin(), tail.end());
  const std::uint64_t tail_first = tail.empty() ? source.total_lines + 1 : tail.front().number;
  std::vector<ShownLine> lines = pick_head(source, limits, tail_first);
  Digest digest;
  digest.head_lines = lines.size();
  digest.tail_first = tail.empty() ? 0 : tail_first;

  // Excerpts in order while they fit; each costs its new lines and the markers it changes.
  std::uint64_t last_shown = lines.empty() ? 0 : lines.back().number;
  std::size_t used = bytes_of(lines) + bytes_of(tail) + gap_bytes(last_shown, tail_first);
  bool budget_left = true;
  for (const process::Excerpt& excerpt : source.excerpts) {
    std::vector<ShownLine> fresh;
    for (const process::KeptLine& line : excerpt) {
      if (line.number > last_shown && line.number < tail_first) {
        fresh.push_back(
            {line.number, start_of(line.text, line.cut, limits.line_bytes), true, line.failure});
      }
    }
    if (fresh.empty()) continue;  // all of it is among the first or last lines
    if (budget_left) {
      // `used` holds the marker from last_shown to the tail, which this excerpt splits in two.
      std::size_t with_excerpt = used - gap_bytes(last_shown, tail_first) + bytes_of(fresh) +
                                 gap_bytes(last_shown, fresh.front().number) +
                                 gap_bytes(fresh.back().number, tail_first);
      for (std::size_t i = 1; i < fresh.size(); ++i) {
        with_excerpt += gap_bytes(fresh[i - 1].number, fresh[i].number);
      }
      budget_left = with_excerpt <= limits.max_bytes;
      if (budget_left) {
        used = with_excerpt;
        last_shown = fresh.back().number;
        lines.insert(lines.end(), fresh.begin(), fresh.end());
      }
    }
    if (budget_left) {
      ++digest.excerpts_shown;
      continue;
    }
    for (const ShownLine& line : fresh) {
      if (!line.failure) continue;
      ++digest.failures_left_out;
      if (!digest.first_failure_left_out) digest.first_failure_left_out = line.number;
    }
  }
  digest.failures_left_out += source.failures_not_kept;
  if (!digest.first_failure_left_out) digest.first_failure_left_out = source.first_failure_not_kept;

  lines.insert(lines.end(), tail.begin(), tail.end());
  std::uint64_t previous = 0;
  for (const ShownLine& line : lines) {
    if (line.number > previous + 1) digest.text += left_out_marker(previous + 1, line.number - 1);
    digest.text += render_line(line);
    previous = line.number;
  }
  if (previous < source.total_lines) {
    digest.text += left_out_marker(previous + 1, source.total_lines);
  }
  return digest;
}

}  // namespace nib::tools
