#include "tools/patch_text.hpp"

#include <algorithm>
#include <functional>

#include "util/ascii.hpp"

namespace nib::tools {
namespace {

constexpr std::string_view kBegin = "*** Begin Patch";
constexpr std::string_view kEnd = "*** End Patch";
constexpr std::string_view kAdd = "*** Add File: ";
constexpr std::string_view kDelete = "*** Delete File: ";
constexpr std::string_view kUpdate = "*** Update File: ";
constexpr std::string_view kMove = "*** Move to: ";
constexpr std::string_view kEndOfFile = "*** End of File";

using util::ascii_trim;
using util::ascii_trim_end;

// Lines split on "\n", a "\r" before it dropped; no empty last line for a final "\n".
std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    start = end + 1;
  }
  return lines;
}

util::Result<std::vector<PatchOperation>> hunk_error(std::size_t line, const std::string& what) {
  return util::Result<std::vector<PatchOperation>>::failure("invalid hunk at line " +
                                                            std::to_string(line) + ", " + what);
}

// Unicode punctuation a model may write in place of ASCII, read as ASCII (Codex's fourth pass).
std::string ascii_punctuation(std::string_view text) {
  struct Mapping {
    std::string_view from;
    char to;
  };
  static const Mapping kMappings[] = {
      {"\u2010", '-'},  {"\u2011", '-'}, {"\u2012", '-'},  {"\u2013", '-'},  {"\u2014", '-'},
      {"\u2015", '-'},  {"\u2212", '-'}, {"\u2018", '\''}, {"\u2019", '\''}, {"\u201A", '\''},
      {"\u201B", '\''}, {"\u201C", '"'}, {"\u201D", '"'},  {"\u201E", '"'},  {"\u201F", '"'},
      {"\u00A0", ' '},  {"\u2002", ' '}, {"\u2003", ' '},  {"\u2004", ' '},  {"\u2005", ' '},
      {"\u2006", ' '},  {"\u2007", ' '}, {"\u2008", ' '},  {"\u2009", ' '},  {"\u200A", ' '},
      {"\u202F", ' '},  {"\u205F", ' '}, {"\u3000", ' '}};
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    bool mapped = false;
    if (static_cast<unsigned char>(text[i]) >= 0x80) {
      for (const Mapping& mapping : kMappings) {
        if (text.substr(i).starts_with(mapping.from)) {
          out += mapping.to;
          i += mapping.from.size();
          mapped = true;
          break;
        }
      }
    }
    if (!mapped) out += text[i++];
  }
  return std::string(ascii_trim(out));
}

using LineEquals = std::function<bool(std::string_view, std::string_view)>;

// Where `pattern` starts in `lines` at or after `start` (at the end first, for an end-of-file
// chunk), trying each pass over the whole range before the next.
std::optional<std::size_t> seek(const std::vector<std::string>& lines,
                                const std::vector<std::string>& pattern, std::size_t start,
                                bool end_of_file) {
  if (pattern.empty()) return start;
  if (pattern.size() > lines.size()) return std::nullopt;
  const std::size_t last = lines.size() - pattern.size();
  static const LineEquals kPasses[] = {
      [](std::string_view a, std::string_view b) { return a == b; },
      [](std::string_view a, std::string_view b) { return ascii_trim_end(a) == ascii_trim_end(b); },
      [](std::string_view a, std::string_view b) { return ascii_trim(a) == ascii_trim(b); },
      [](std::string_view a, std::string_view b) {
        return ascii_punctuation(a) == ascii_punctuation(b);
      }};
  const auto matches_at = [&](std::size_t at, const LineEquals& equal) {
    for (std::size_t i = 0; i < pattern.size(); ++i) {
      if (!equal(lines[at + i], pattern[i])) return false;
    }
    return true;
  };
  const auto search_from = [&](std::size_t from) -> std::optional<std::size_t> {
    for (const LineEquals& equal : kPasses) {
      for (std::size_t at = from; at <= last; ++at) {
        if (matches_at(at, equal)) return at;
      }
    }
    return std::nullopt;
  };
  if (end_of_file) {
    if (auto at = search_from(std::max(last, start))) return at;
  }
  if (start > last) return std::nullopt;
  return search_from(start);
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) text += (i == 0 ? "" : "\n") + lines[i];
  return text;
}

}  // namespace

util::Result<std::vector<PatchOperation>> parse_patch(std::string_view patch) {
  using Result = util::Result<std::vector<PatchOperation>>;
  std::vector<std::string> lines = split_lines(ascii_trim(patch));
  const auto bounded = [&] {
    return !lines.empty() && ascii_trim(lines.front()) == kBegin &&
           ascii_trim(lines.back()) == kEnd;
  };
  std::size_t first_line = 1;
  if (!bounded() && lines.size() >= 4) {
    // A heredoc around the patch, as a shell command would have it.
    const std::string_view open = lines.front();
    if ((open == "<<EOF" || open == "<<'EOF'" || open == "<<\"EOF\"") &&
        std::string_view(lines.back()).ends_with("EOF")) {
      const std::vector<std::string> inner(lines.begin() + 1, lines.end() - 1);
      if (!inner.empty() && ascii_trim(inner.front()) == kBegin &&
          ascii_trim(inner.back()) == kEnd) {
        lines = inner;
        first_line = 2;
      }
    }
  }
  if (lines.empty() || ascii_trim(lines.front()) != kBegin) {
    return Result::failure("invalid patch: The first line of the patch must be '*** Begin Patch'");
  }
  if (ascii_trim(lines.back()) != kEnd) {
    return Result::failure("invalid patch: The last line of the patch must be '*** End Patch'");
  }
  std::vector<PatchOperation> operations;
  std::size_t i = 1;
  const std::size_t end = lines.size() - 1;
  const auto number = [&](std::size_t index) { return index + first_line; };
  while (i < end) {
    const std::string_view header = ascii_trim(lines[i]);
    PatchOperation operation;
    operation.line = number(i);
    if (header.empty()) {
      ++i;
      continue;
    }
    if (header.starts_with(kAdd)) {
      operation.kind = PatchOperation::Kind::kAdd;
      operation.path = std::string(ascii_trim(header.substr(kAdd.size())));
      ++i;
      while (i < end && lines[i].starts_with('+')) {
        operation.contents += lines[i].substr(1) + "\n";
        ++i;
      }
    } else if (header.starts_with(kDelete)) {
      operation.kind = PatchOperation::Kind::kDelete;
      operation.path = std::string(ascii_trim(header.substr(kDelete.size())));
      ++i;
    } else if (header.starts_with(kUpdate)) {
      operation.kind = PatchOperation::Kind::kUpdate;
      operation.path = std::string(ascii_trim(header.substr(kUpdate.size())));
      ++i;
      if (i < end && lines[i].starts_with(kMove)) {
        operation.move_to =
            std::string(ascii_trim(std::string_view(lines[i]).substr(kMove.size())));
        ++i;
      }
      while (i < end) {
        if (ascii_trim(lines[i]).empty()) {
          ++i;
          continue;
        }
        if (lines[i].starts_with('*')) break;
        PatchChunk chunk;
        const std::size_t chunk_start = i;
        if (lines[i] == "@@") {
          ++i;
        } else if (lines[i].starts_with("@@ ")) {
          chunk.context = lines[i].substr(3);
          ++i;
        } else if (!operation.chunks.empty()) {
          return hunk_error(number(i),
                            "Expected update hunk to start with a @@ context marker, "
                            "got: '" +
                                lines[i] + "'");
        }
        std::size_t body = 0;
        while (i < end) {
          const std::string& line = lines[i];
          if (line == kEndOfFile) {
            if (body == 0) {
              return hunk_error(number(chunk_start) + 1, "Update hunk does not contain any lines");
            }
            chunk.end_of_file = true;
            ++i;
            break;
          }
          const char kind = line.empty() ? ' ' : line[0];
          const std::string rest = line.empty() ? "" : line.substr(1);
          if (kind == ' ') {
            chunk.old_lines.push_back(rest);
            chunk.new_lines.push_back(rest);
          } else if (kind == '-') {
            chunk.old_lines.push_back(rest);
          } else if (kind == '+') {
            chunk.new_lines.push_back(rest);
          } else if (body == 0) {
            return hunk_error(number(i),
                              "Unexpected line found in update hunk: '" + line +
                                  "'. Every line should start with ' ' (context line), '+' "
                                  "(added line), or '-' (removed line)");
          } else {
            break;
          }
          ++body;
          ++i;
        }
        if (body == 0) {
          return hunk_error(number(chunk_start) + 1, "Update hunk does not contain any lines");
        }
        operation.chunks.push_back(std::move(chunk));
      }
      if (operation.chunks.empty()) {
        return hunk_error(operation.line,
                          "Update file hunk for path '" + operation.path + "' is empty");
      }
    } else {
      return hunk_error(number(i),
                        "'" + std::string(header) +
                            "' is not a valid hunk header. Valid hunk headers: '*** Add File: "
                            "{path}', '*** Delete File: {path}', '*** Update File: {path}'. The "
                            "most common cause is a content line missing its leading '+': every "
                            "added line must begin with '+'.");
    }
    if (operation.path.empty()) return hunk_error(operation.line, "the path is empty");
    operations.push_back(std::move(operation));
  }
  return operations;
}

std::string_view dominant_line_end(std::string_view text) {
  std::size_t crlf = 0;
  std::size_t lf = 0;
  for (std::size_t at = text.find('\n'); at != std::string_view::npos;
       at = text.find('\n', at + 1)) {
    ++(at > 0 && text[at - 1] == '\r' ? crlf : lf);
  }
  return crlf > lf ? "\r\n" : "\n";
}

util::Result<std::string> apply_chunks(std::string_view text, const std::vector<PatchChunk>& chunks,
                                       const std::string& shown) {
  using Result = util::Result<std::string>;
  const std::string_view eol = dominant_line_end(text);
  std::vector<std::string> lines = split_lines(text);
  struct Replacement {
    std::size_t start;
    std::size_t length;
    std::vector<std::string> lines;
  };
  std::vector<Replacement> replacements;
  std::size_t next = 0;
  for (const PatchChunk& chunk : chunks) {
    if (chunk.context) {
      const auto at = seek(lines, {*chunk.context}, next, false);
      if (!at)
        return Result::failure("Failed to find context '" + *chunk.context + "' in " + shown);
      next = *at + 1;
    }
    if (chunk.old_lines.empty()) {
      // Only added lines: they go at the end of the file (as Codex places them).
      replacements.push_back({lines.size(), 0, chunk.new_lines});
      continue;
    }
    std::vector<std::string> old_lines = chunk.old_lines;
    std::vector<std::string> new_lines = chunk.new_lines;
    auto at = seek(lines, old_lines, next, chunk.end_of_file);
    if (!at && old_lines.back().empty()) {
      // A blank line before the next @@ or the end of the patch is no line of the file.
      old_lines.pop_back();
      if (!new_lines.empty() && new_lines.back().empty()) new_lines.pop_back();
      at = seek(lines, old_lines, next, chunk.end_of_file);
    }
    if (!at) {
      return Result::failure("Failed to find expected lines in " + shown + ":\n" +
                             joined(chunk.old_lines));
    }
    replacements.push_back({*at, old_lines.size(), std::move(new_lines)});
    next = *at + old_lines.size();
  }
  std::stable_sort(replacements.begin(), replacements.end(),
                   [](const Replacement& a, const Replacement& b) { return a.start < b.start; });
  for (auto replacement = replacements.rbegin(); replacement != replacements.rend();
       ++replacement) {
    const auto from = lines.begin() + static_cast<std::ptrdiff_t>(replacement->start);
    lines.erase(from, from + static_cast<std::ptrdiff_t>(replacement->length));
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(replacement->start),
                 replacement->lines.begin(), replacement->lines.end());
  }
  std::string result;
  for (const std::string& line : lines) {
    result += line;
    result += eol;
  }
  return result;
}

}  // namespace nib::tools
