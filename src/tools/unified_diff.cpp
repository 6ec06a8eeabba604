#include "tools/unified_diff.hpp"

#include <algorithm>
#include <vector>

#include <dtl/dtl.hpp>

#include "util/utf8.hpp"

namespace nib::tools {
namespace {

enum class Op { kCommon, kDelete, kAdd };

// One line of the edit script, with its 0-based index in the old and the new text (the index
// the line has, or would have next, on the side it is absent from).
struct Step {
  Op op;
  std::size_t old_index;
  std::size_t new_index;
};

// The lines of `text`, each with its "\n" when it has one.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

// The edit script for old[begin_old, end_old) against new[begin_new, end_new).
void diff_middle(const std::vector<std::string_view>& old_lines,
                 const std::vector<std::string_view>& new_lines, std::size_t old_begin,
                 std::size_t old_end, std::size_t new_begin, std::size_t new_end,
                 std::vector<Step>& steps) {
  std::size_t old_index = old_begin;
  std::size_t new_index = new_begin;
  if ((old_end - old_begin) + (new_end - new_begin) > kMaxDiffLines) {
    for (; old_index < old_end; ++old_index) steps.push_back({Op::kDelete, old_index, new_index});
    for (; new_index < new_end; ++new_index) steps.push_back({Op::kAdd, old_index, new_index});
    return;
  }
  const std::vector<std::string_view> a(old_lines.begin() + static_cast<std::ptrdiff_t>(old_begin),
                                        old_lines.begin() + static_cast<std::ptrdiff_t>(old_end));
  const std::vector<std::string_view> b(new_lines.begin() + static_cast<std::ptrdiff_t>(new_begin),
                                        new_lines.begin() + static_cast<std::ptrdiff_t>(new_end));
  dtl::Diff<std::string_view, std::vector<std::string_view>> diff(a, b, /*deletesFirst=*/true);
  diff.compose();
  for (const auto& [line, info] : diff.getSes().getSequence()) {
    switch (info.type) {
      case dtl::SES_COMMON:
        steps.push_back({Op::kCommon, old_index++, new_index++});
        break;
      case dtl::SES_DELETE:
        steps.push_back({Op::kDelete, old_index++, new_index});
        break;
      case dtl::SES_ADD:
        steps.push_back({Op::kAdd, old_index, new_index++});
        break;
    }
  }
}

// "-a,b" / "+c,d" as GNU diff writes them: the count is left out when it is 1, and an empty
// range names the line before it.
std::string range(char sign, std::size_t first_index, std::size_t count) {
  std::string text(1, sign);
  text += std::to_string(count == 0 ? first_index : first_index + 1);
  if (count != 1) text += "," + std::to_string(count);
  return text;
}

// Hands each line of the diff (with its "\n") to `sink` in order, until it returns false.
template <typename Sink>
void write_diff(std::string_view old_text, std::string_view new_text, std::string_view old_label,
                std::string_view new_label, std::size_t context, Sink&& sink) {
  if (old_text == new_text) return;
  const auto old_lines = lines_of(old_text);
  const auto new_lines = lines_of(new_text);
  std::size_t prefix = 0;
  while (prefix < old_lines.size() && prefix < new_lines.size() &&
         old_lines[prefix] == new_lines[prefix]) {
    ++prefix;
  }
  std::size_t suffix = 0;
  while (suffix < old_lines.size() - prefix && suffix < new_lines.size() - prefix &&
         old_lines[old_lines.size() - 1 - suffix] == new_lines[new_lines.size() - 1 - suffix]) {
    ++suffix;
  }

  // Only the lines hunks can show: the differing middle and `context` lines either side.
  std::vector<Step> steps;
  const std::size_t lead = std::min(prefix, context);
  for (std::size_t i = prefix - lead; i < prefix; ++i) steps.push_back({Op::kCommon, i, i});
  const std::size_t old_middle_end = old_lines.size() - suffix;
  const std::size_t new_middle_end = new_lines.size() - suffix;
  diff_middle(old_lines, new_lines, prefix, old_middle_end, prefix, new_middle_end, steps);
  for (std::size_t i = 0; i < std::min(suffix, context); ++i) {
    steps.push_back({Op::kCommon, old_middle_end + i, new_middle_end + i});
  }

  if (!sink("--- " + std::string(old_label) + "\n") ||
      !sink("+++ " + std::string(new_label) + "\n")) {
    return;
  }
  // A file line with its sign; one without a final "\n" is followed by GNU diff's marker.
  const auto line = [&sink](char sign, std::string_view text) {
    std::string out(1, sign);
    out += text;
    if (text.ends_with('\n')) return sink(out);
    return sink(out + "\n") && sink("\\ No newline at end of file\n");
  };
  std::size_t pos = 0;
  while (pos < steps.size()) {
    // A hunk runs from `context` lines before a change to `context` lines after the last
    // change that is no more than 2 * context unchanged lines from the one before it.
    const auto is_change = [&](std::size_t i) { return steps[i].op != Op::kCommon; };
    std::size_t first_change = pos;
    while (first_change < steps.size() && !is_change(first_change)) ++first_change;
    if (first_change == steps.size()) break;
    std::size_t last_change = first_change;
    for (std::size_t i = first_change + 1; i < steps.size() && i <= last_change + 2 * context + 1;
         ++i) {
      if (is_change(i)) last_change = i;
    }
    const std::size_t begin = first_change - std::min(context, first_change - pos);
    const std::size_t end = std::min(steps.size(), last_change + context + 1);

    std::size_t old_count = 0;
    std::size_t new_count = 0;
    for (std::size_t i = begin; i < end; ++i) {
      if (steps[i].op != Op::kAdd) ++old_count;
      if (steps[i].op != Op::kDelete) ++new_count;
    }
    if (!sink("@@ " + range('-', steps[begin].old_index, old_count) + " " +
              range('+', steps[begin].new_index, new_count) + " @@\n")) {
      return;
    }
    for (std::size_t i = begin; i < end; ++i) {
      const bool more = steps[i].op == Op::kAdd ? line('+', new_lines[steps[i].new_index])
                                                : line(steps[i].op == Op::kDelete ? '-' : ' ',
                                                       old_lines[steps[i].old_index]);
      if (!more) return;
    }
    pos = end;
  }
}

}  // namespace

std::string unified_diff(std::string_view old_text, std::string_view new_text,
                         std::string_view old_label, std::string_view new_label,
                         std::size_t context) {
  std::string out;
  write_diff(old_text, new_text, old_label, new_label, context, [&out](const std::string& line) {
    out += line;
    if (out.size() <= kMaxDiffBytes) return true;
    out.resize(kMaxDiffBytes);
    out.resize(out.rfind('\n') + 1);
    out += "[diff cut at " + std::to_string(kMaxDiffBytes / 1024) + " KB]\n";
    return false;
  });
  return out;
}

DiffHead unified_diff_head(std::string_view old_text, std::string_view new_text,
                           std::string_view old_label, std::string_view new_label,
                           std::size_t max_lines, std::size_t context) {
  DiffHead head;
  std::size_t kept = 0;
  write_diff(old_text, new_text, old_label, new_label, context, [&](const std::string& line) {
    if (kept == max_lines) {
      ++head.omitted_lines;
      return true;
    }
    ++kept;
    if (line.size() <= kPreviewLineBytes) {
      head.text += line;
    } else {
      head.text.append(line, 0, util::utf8_prefix_length(line, kPreviewLineBytes - 4));
      head.text += "…\n";
    }
    return true;
  });
  return head;
}

}  // namespace nib::tools
