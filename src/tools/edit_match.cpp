#include "tools/edit_match.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "util/utf8.hpp"

namespace nib::tools {
namespace {

// A line occurring more often than this ("}", "end", "else:") says nothing about where
// oldText was meant to be, so it gets no vote in closest_region().
constexpr std::size_t kMaxAnchorPositions = 64;
// Bigram similarity (Dice coefficient) a line needs to be offered as the closest candidate.
constexpr double kMinCandidateSimilarity = 0.5;
// Lines shorter than this (in tolerant form) are too short to judge similarity by.
constexpr std::size_t kMinSimilarityBytes = 4;

// One character: its bytes, length and code point (U+FFFD for an invalid byte).
struct Character {
  std::size_t length = 1;
  char32_t code_point = 0;
};

Character character_at(std::string_view text, std::size_t pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return {1, lead};
  const std::size_t length = util::utf8_sequence_length(text, pos);
  if (length == 0) return {1, 0xFFFD};
  char32_t code_point = lead & (0xFF >> (length + 1));
  for (std::size_t i = 1; i < length; ++i) {
    code_point = (code_point << 6) | (static_cast<unsigned char>(text[pos + i]) & 0x3F);
  }
  return {length, code_point};
}

bool is_unicode_space(char32_t c) {
  return c == 0x00A0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

// Horizontal whitespace, stripped from both ends of every line by the tolerant comparison.
bool is_blank(char32_t c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' || is_unicode_space(c);
}

// The ASCII character the tolerant comparison treats `c` as, or 0 when it stays as it is.
char ascii_equivalent(char32_t c) {
  if (is_unicode_space(c)) return ' ';
  switch (c) {
    case 0x2018:  // ‘
    case 0x2019:  // ’
    case 0x201A:  // ‚
    case 0x201B:  // ‛
    case 0x2032:  // ′
    case 0x2035:  // ‵
      return '\'';
    case 0x201C:  // “
    case 0x201D:  // ”
    case 0x201E:  // „
    case 0x201F:  // ‟
    case 0x2033:  // ″
    case 0x2036:  // ‶
      return '"';
    case 0x2212:  // − minus sign
    case 0xFE58:  // ﹘
    case 0xFE63:  // ﹣
    case 0xFF0D:  // －
      return '-';
    default:
      return c >= 0x2010 && c <= 0x2015 ? '-' : 0;  // hyphens, en and em dashes, bar
  }
}

// The start of the character that ends at `end` (> line_start) in `text`.
std::size_t character_before(std::string_view text, std::size_t end, std::size_t line_start) {
  std::size_t start = end - 1;
  while (start > line_start && end - start < 4 &&
         (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) {
    --start;
  }
  // Not a whole valid character (a stray continuation byte): it stands alone.
  return character_at(text, start).length == end - start ? start : end - 1;
}

// Walks `text` in tolerant form: every line without its leading and trailing blanks, look-alike
// characters as ASCII. Calls emit(bytes, source_begin) for each run of bytes kept as they are
// (source_begin is where the run starts in `text`), and for each replaced character and each
// "\n"; stops early when emit returns false. A template rather than a std::function, with
// runs rather than characters: it walks whole files.
template <typename Emit>
void walk_tolerant(std::string_view text, Emit&& emit) {
  std::size_t line_start = 0;
  while (line_start <= text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    // The kept part: from the first non-blank character to the end of the last one.
    std::size_t first = line_start;
    while (first < line_end) {
      const Character c = character_at(text, first);
      if (!is_blank(c.code_point)) break;
      first += c.length;
    }
    std::size_t last_end = line_end;
    while (last_end > first) {
      const std::size_t start = character_before(text, last_end, first);
      if (!is_blank(character_at(text, start).code_point)) break;
      last_end = start;
    }
    std::size_t run = first;  // start of the bytes not yet emitted
    for (std::size_t pos = first; pos < last_end;) {
      if (static_cast<unsigned char>(text[pos]) < 0x80) {
        ++pos;
        continue;
      }
      const Character c = character_at(text, pos);
      const char ascii = ascii_equivalent(c.code_point);
      if (ascii != 0) {
        if (pos > run && !emit(text.substr(run, pos - run), run)) return;
        if (!emit(std::string_view(&ascii, 1), pos)) return;
        run = pos + c.length;
      }
      pos += c.length;
    }
    if (last_end > run && !emit(text.substr(run, last_end - run), run)) return;
    if (line_end == text.size()) return;
    if (!emit("\n", line_end)) return;
    line_start = line_end + 1;
  }
}

// Sets `form` to the tolerant form of `text` (a buffer the caller may reuse).
void tolerant_form(std::string_view text, std::string& form) {
  form.clear();
  form.reserve(text.size());
  walk_tolerant(text, [&](std::string_view bytes, std::size_t) {
    form += bytes;
    return true;
  });
}

std::string tolerant_form(std::string_view text) {
  std::string form;
  tolerant_form(text, form);
  return form;
}

// Where in `text` byte `index` of its tolerant form comes from: the start of the character that
// produced it (a replaced character yields one byte, so its start; a kept byte, itself).
std::size_t tolerant_source(std::string_view text, std::size_t index) {
  std::size_t source = text.size();
  std::size_t produced = 0;
  walk_tolerant(text, [&](std::string_view bytes, std::size_t begin) {
    if (produced + bytes.size() <= index) {
      produced += bytes.size();
      return true;
    }
    source = begin + (index - produced);
    return false;
  });
  return source;
}

// Every start of `needle` in `haystack`, overlapping ones included.
std::vector<std::size_t> occurrences(std::string_view haystack, std::string_view needle) {
  std::vector<std::size_t> found;
  for (std::size_t pos = haystack.find(needle); pos != std::string_view::npos;
       pos = haystack.find(needle, pos + 1)) {
    found.push_back(pos);
  }
  return found;
}

// 1-based line numbers of the first kMaxReportedOccurrences `offsets` (ascending) in `text`.
std::vector<std::size_t> line_numbers(std::string_view text,
                                      const std::vector<std::size_t>& offsets) {
  std::vector<std::size_t> lines;
  std::size_t line = 1;
  std::size_t counted = 0;
  for (std::size_t i = 0; i < offsets.size() && i < kMaxReportedOccurrences; ++i) {
    line += static_cast<std::size_t>(
        std::count(text.begin() + counted, text.begin() + offsets[i], '\n'));
    counted = offsets[i];
    lines.push_back(line);
  }
  return lines;
}

std::size_t line_of(std::string_view text, std::size_t offset) {
  return line_numbers(text, {offset}).front();
}

// The leading blanks of `line`.
std::string_view indentation(std::string_view line) {
  std::size_t pos = 0;
  while (pos < line.size()) {
    const Character c = character_at(line, pos);
    if (!is_blank(c.code_point)) break;
    pos += c.length;
  }
  return line.substr(0, pos);
}

// The indentation of the first non-blank line of `text`, and that line's 0-based number.
std::pair<std::string_view, std::size_t> first_indentation(std::string_view text) {
  std::size_t line_start = 0;
  for (std::size_t number = 0;; ++number) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view line = text.substr(line_start, line_end - line_start);
    const std::string_view indent = indentation(line);
    if (indent.size() < line.size() || line_end == text.size()) return {indent, number};
    line_start = line_end + 1;
  }
}

// `text` with `from` at the start of each non-blank line replaced by `to`.
std::string rebase_indentation(std::string_view text, std::string_view from, std::string_view to) {
  std::string result;
  std::size_t line_start = 0;
  while (true) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view line = text.substr(line_start, line_end - line_start);
    const bool blank = indentation(line).size() == line.size();
    if (!blank && line.starts_with(from)) {
      result += to;
      result += line.substr(from.size());
    } else {
      result += line;
    }
    if (line_end == text.size()) break;
    result += '\n';
    line_start = line_end + 1;
  }
  return result;
}

// The lines of `text`; a final "\n" ends the last line rather than starting an empty one.
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (text.empty()) lines.emplace_back();
  return lines;
}

EditFailure failure(EditFailure::Kind kind, std::size_t index) {
  EditFailure result;
  result.kind = kind;
  result.index = index;
  return result;
}

EditFailure ambiguous(std::string_view text, const std::vector<std::size_t>& offsets,
                      std::size_t index, bool tolerant) {
  EditFailure result = failure(EditFailure::Kind::kAmbiguous, index);
  result.count = offsets.size();
  result.lines = line_numbers(text, offsets);
  result.tolerant = tolerant;
  return result;
}

std::variant<EditMatch, EditFailure> locate_tolerantly(std::string_view view,
                                                       const EditRequest& edit, std::size_t index) {
  const std::string needle = tolerant_form(edit.old_text);
  const std::string haystack = needle.empty() ? std::string() : tolerant_form(view);
  const auto found = needle.empty() ? std::vector<std::size_t>{} : occurrences(haystack, needle);
  if (found.size() > 1) {
    EditFailure result = ambiguous(haystack, found, index, true);
    return result;
  }
  if (found.empty()) {
    EditFailure result = failure(EditFailure::Kind::kNotFound, index);
    result.candidate = closest_region(view, edit.old_text);
    return result;
  }
  const std::size_t start = found.front();
  EditMatch match;
  match.index = index;
  match.tolerant = true;
  // The needle starts and ends with whole characters, so its first byte's source is where a
  // character starts, and its last byte's source is a kept byte or a replaced character.
  match.begin = tolerant_source(view, start);
  const std::size_t last = tolerant_source(view, start + needle.size() - 1);
  match.end = last + character_at(view, last).length;
  match.replacement = edit.new_text;
  // Matched from the start of a line: take that line's indentation into the span, and give
  // newText the file's indentation where oldText's differed. Indentation is compared on
  // oldText's first non-blank line and the file line it matched.
  if (start == 0 || haystack[start - 1] == '\n') {
    const std::size_t line_start = match.begin == 0 ? 0 : view.rfind('\n', match.begin - 1) + 1;
    match.begin = line_start;
    const auto [old_indent, reference] = first_indentation(edit.old_text);
    std::size_t file_line = line_start;
    for (std::size_t i = 0; i < reference; ++i) file_line = view.find('\n', file_line) + 1;
    const std::string_view file_indent = indentation(view.substr(file_line));
    if (file_indent != old_indent) {
      match.replacement = rebase_indentation(edit.new_text, old_indent, file_indent);
      match.reindented = match.replacement != edit.new_text;
    }
  }
  return match;
}

// The window of oldText's size where most of its informative lines appear in order, if
// enough do. One pass over the file, looking each line up among oldText's few lines.
std::optional<LineRange> voted_region(const std::vector<std::string_view>& file_lines,
                                      const std::vector<std::string>& old_keys) {
  std::unordered_map<std::string_view, std::vector<std::size_t>> wanted;  // key -> old lines
  std::size_t informative = 0;
  for (std::size_t j = 0; j < old_keys.size(); ++j) {
    if (old_keys[j].empty()) continue;
    wanted[old_keys[j]].push_back(j);
    ++informative;
  }
  if (informative == 0) return std::nullopt;
  // Where each wanted key occurs in the file, up to one more than kMaxAnchorPositions.
  std::unordered_map<std::string_view, std::vector<std::size_t>> found;
  std::string key;
  for (std::size_t p = 0; p < file_lines.size(); ++p) {
    tolerant_form(file_lines[p], key);
    const auto it = wanted.find(key);
    if (it == wanted.end()) continue;
    auto& positions = found[it->first];
    if (positions.size() <= kMaxAnchorPositions) positions.push_back(p);
  }
  std::vector<std::uint32_t> votes(file_lines.size(), 0);
  for (const auto& [found_key, positions] : found) {
    if (positions.size() > kMaxAnchorPositions) continue;
    for (const std::size_t j : wanted[found_key]) {
      for (const std::size_t p : positions) {
        if (p >= j) ++votes[p - j];
      }
    }
  }
  const auto best = std::max_element(votes.begin(), votes.end());
  if (best == votes.end() || *best == 0 || (*best < 2 && *best * 2 < informative)) {
    return std::nullopt;
  }
  const std::size_t first = static_cast<std::size_t>(best - votes.begin());
  return LineRange{first + 1, std::min(file_lines.size(), first + old_keys.size())};
}

std::size_t bigram(std::string_view text, std::size_t pos) {
  return (static_cast<std::size_t>(static_cast<unsigned char>(text[pos])) << 8) |
         static_cast<unsigned char>(text[pos + 1]);
}

// The window placed by the file line most like oldText's longest line, if one is alike enough
// (Dice coefficient of byte bigrams).
std::optional<LineRange> similar_region(const std::vector<std::string_view>& file_lines,
                                        const std::vector<std::string>& old_keys) {
  const auto longest =
      std::max_element(old_keys.begin(), old_keys.end(),
                       [](const auto& a, const auto& b) { return a.size() < b.size(); });
  if (longest == old_keys.end() || longest->size() < kMinSimilarityBytes) return std::nullopt;
  const std::size_t anchor = static_cast<std::size_t>(longest - old_keys.begin());
  std::vector<std::uint16_t> wanted(1 << 16, 0);
  for (std::size_t k = 0; k + 1 < longest->size(); ++k) {
    auto& count = wanted[bigram(*longest, k)];
    if (count < UINT16_MAX) ++count;
  }
  const std::size_t wanted_total = longest->size() - 1;
  std::vector<std::uint16_t> used(1 << 16, 0);
  std::string key;
  double best_score = 0;
  std::size_t best_line = 0;
  for (std::size_t i = 0; i < file_lines.size(); ++i) {
    // Dice >= 0.5 needs the shorter text to be at least a third of the longer; the tolerant
    // form is never longer than the line, so short lines are skipped before computing it.
    if (file_lines[i].size() * 3 < longest->size()) continue;
    tolerant_form(file_lines[i], key);
    if (key.size() < 2 || key.size() * 3 < longest->size() || longest->size() * 3 < key.size()) {
      continue;
    }
    std::size_t shared = 0;
    for (std::size_t k = 0; k + 1 < key.size(); ++k) {
      if (used[bigram(key, k)] < wanted[bigram(key, k)]) {
        ++used[bigram(key, k)];
        ++shared;
      }
    }
    for (std::size_t k = 0; k + 1 < key.size(); ++k) used[bigram(key, k)] = 0;
    const double score =
        2.0 * static_cast<double>(shared) / static_cast<double>(wanted_total + key.size() - 1);
    if (score > best_score) {
      best_score = score;
      best_line = i;
    }
  }
  if (best_score < kMinCandidateSimilarity) return std::nullopt;
  const std::size_t first = best_line >= anchor ? best_line - anchor : 0;
  return LineRange{first + 1, std::min(file_lines.size(), first + old_keys.size())};
}

std::string numbered_region(std::string_view view, const LineRange& range) {
  const auto lines = split_lines(view);
  const std::size_t last =
      std::min({range.last, lines.size(), range.first + kMaxCandidateLines - 1});
  const std::size_t width = std::to_string(last).size();
  std::string text;
  std::size_t line = range.first;
  for (; line <= last; ++line) {
    std::string number = std::to_string(line);
    std::string entry = std::string(width - number.size(), ' ') + number + "\t";
    entry += util::sanitize_utf8(lines[line - 1]);
    if (text.size() + entry.size() + 1 > kMaxCandidateBytes) break;
    text += entry + "\n";
  }
  if (line <= range.last) {
    text += "[... lines " + std::to_string(line) + "-" + std::to_string(range.last) +
            " not shown; read them with offset=" + std::to_string(line) + "]\n";
  }
  return text;
}

std::string join_numbers(const std::vector<std::size_t>& numbers) {
  std::string text;
  for (std::size_t i = 0; i < numbers.size(); ++i)
    text += (i ? ", " : "") + std::to_string(numbers[i]);
  return text;
}

}  // namespace

std::variant<EditMatch, EditFailure> locate_edit(std::string_view view, const EditRequest& edit,
                                                 std::size_t index) {
  if (edit.old_text.empty()) return failure(EditFailure::Kind::kEmptyOldText, index);
  if (edit.old_text == edit.new_text) return failure(EditFailure::Kind::kNoChange, index);
  const auto found = occurrences(view, edit.old_text);
  if (found.size() > 1) return ambiguous(view, found, index, false);
  if (found.empty()) return locate_tolerantly(view, edit, index);
  EditMatch match;
  match.index = index;
  match.begin = found.front();
  match.end = match.begin + edit.old_text.size();
  match.replacement = edit.new_text;
  return match;
}

std::variant<std::vector<EditMatch>, EditFailure> locate_edits(
    std::string_view view, const std::vector<EditRequest>& edits) {
  std::vector<EditMatch> matches;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    auto located = locate_edit(view, edits[i], i);
    if (auto* failed = std::get_if<EditFailure>(&located)) return std::move(*failed);
    matches.push_back(std::move(std::get<EditMatch>(located)));
  }
  std::sort(matches.begin(), matches.end(),
            [](const EditMatch& a, const EditMatch& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < matches.size(); ++i) {
    const EditMatch& before = matches[i - 1];
    const EditMatch& after = matches[i];
    if (after.begin < before.end) {
      EditFailure result =
          failure(EditFailure::Kind::kOverlap, std::max(before.index, after.index));
      result.other = std::min(before.index, after.index);
      result.line = line_of(view, after.begin);
      return result;
    }
  }
  return matches;
}

std::optional<LineRange> closest_region(std::string_view view, std::string_view old_text) {
  const auto file_lines = split_lines(view);
  std::vector<std::string> old_keys;
  for (const auto line : split_lines(old_text)) old_keys.push_back(tolerant_form(line));
  if (auto region = voted_region(file_lines, old_keys)) return region;
  return similar_region(file_lines, old_keys);
}

std::string describe_failure(std::string_view view, const EditFailure& failure,
                             std::size_t edit_count) {
  const auto name = [&](std::size_t index) { return "edits[" + std::to_string(index) + "]"; };
  const std::string subject = edit_count > 1 ? name(failure.index) + ": " : "";
  switch (failure.kind) {
    case EditFailure::Kind::kEmptyOldText:
      return subject +
             "oldText is empty. To create a file or replace all of it, use the write tool; to "
             "insert text, put a neighbouring line in oldText and repeat it in newText with "
             "your addition.";
    case EditFailure::Kind::kNoChange:
      return subject + "oldText and newText are identical, so this edit would change nothing.";
    case EditFailure::Kind::kNotFound: {
      std::string text = subject +
                         "oldText was not found in the file, not even when ignoring "
                         "indentation, trailing whitespace and quote, dash and space styles.";
      if (failure.candidate) {
        const LineRange& range = *failure.candidate;
        text += " The most similar part of the file is " +
                (range.first == range.last
                     ? "line " + std::to_string(range.first)
                     : "lines " + std::to_string(range.first) + "-" + std::to_string(range.last)) +
                " (numbered here; the numbers are not part of the file):\n" +
                numbered_region(view, range);
        text += "Copy oldText exactly from the file as it is now; read it again if unsure.";
      } else {
        text += " Read the file again and copy oldText exactly from it.";
      }
      return text;
    }
    case EditFailure::Kind::kAmbiguous: {
      std::string text = subject + "oldText was found " + std::to_string(failure.count) + " times" +
                         (failure.tolerant ? " (ignoring whitespace, quote and dash styles)" : "") +
                         ", at lines " + join_numbers(failure.lines) +
                         (failure.count > failure.lines.size() ? ", ..." : "") +
                         "; it must match exactly once. Add more surrounding lines to oldText "
                         "to make it unique.";
      return text;
    }
    case EditFailure::Kind::kOverlap:
      return name(failure.other) + " and " + name(failure.index) + " overlap (both change line " +
             std::to_string(failure.line) + "). Combine them into one edit.";
  }
  return subject + "the edit could not be placed.";
}

}  // namespace nib::tools
