#include "extensions/yaml_leniency.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <span>

#include "util/blank_text.hpp"

namespace nib::extensions {
namespace {

// Characters that make quoting a value wrong: it is quoted already, or it starts something
// YAML gives a meaning across lines (a block scalar, an anchor, an alias, a tag).
constexpr std::string_view kLeaveAloneStarts = "\"'|>&*!#";
// Characters that make a value YAML structure rather than text to run on: a block scalar, a
// list or mapping, an anchor, an alias, a tag, a comment.
constexpr std::string_view kStructureStarts = "|>[{&*!#";

// Every front-matter key Claude Code documents for agents (code.claude.com/docs/en/sub-agents),
// commands and skills (/slash-commands, /skills) and the Agent Skills specification's, with
// nib's own (thinking). Every key nib's readers read must be here: a line at the left edge that
// begins one of these starts a field, any other runs on the value above it.
constexpr auto kFrontMatterKeys = std::to_array<std::string_view>(
    {// Agents.
     "name", "description", "tools", "disallowedTools", "model", "permissionMode", "maxTurns",
     "skills", "mcpServers", "hooks", "memory", "background", "effort", "isolation",
     "initialPrompt", "color", "thinking",
     // Commands and skills.
     "argument-hint", "allowed-tools", "disable-model-invocation", "user-invocable", "context",
     "agent", "when_to_use", "paths",
     // The Agent Skills specification.
     "license", "compatibility", "metadata", "version"});

// The lines of `text` without their '\n'; the text after the last '\n' is a line too (empty
// when `text` ends with one), so that joining the lines with '\n' gives `text` back.
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(start));
      return lines;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

std::string joined_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) text += '\n';
    text += lines[i];
  }
  return text;
}

bool parses(std::string_view value) {
  try {
    YAML::Load("key: " + std::string(value));
    return true;
  } catch (const YAML::Exception&) {
    return false;
  }
}

// Whether a value opening with "[" or "{" closes that collection on its line, so what fails
// is text after it ("[issue] [priority]"), not a list left open for later lines.
bool first_collection_closes(std::string_view value) {
  int depth = 0;
  char quote = 0;
  for (const char c : value) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && --depth == 0) {
      return true;
    }
  }
  return false;
}

// The value of a top-level "key: value" line that should be quoted, or empty.
std::string_view value_to_quote(std::string_view line) {
  if (line.empty() || line.front() == ' ' || line.front() == '\t' || line.front() == '#' ||
      line.front() == '-' || line.front() == '"' || line.front() == '\'') {
    return {};
  }
  const std::size_t colon = line.find(": ");
  if (colon == std::string_view::npos) return {};
  const std::string_view value = util::trim_blanks(line.substr(colon + 2));
  if (value.empty() || kLeaveAloneStarts.find(value.front()) != std::string_view::npos) return {};
  if ((value.front() == '[' || value.front() == '{') && !first_collection_closes(value)) return {};
  return parses(value) ? std::string_view{} : value;
}

std::string single_quoted(std::string_view value) {
  std::string out = "'";
  for (const char c : value) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// The value on `line` when the line begins a front-matter key ("model: sonnet" → "sonnet",
// "model:" → ""), else nullopt.
std::optional<std::string_view> known_key_value(std::string_view line) {
  for (const std::string_view key : kFrontMatterKeys) {
    if (!line.starts_with(key) || line.substr(key.size(), 1) != ":") continue;
    const std::string_view rest = line.substr(key.size() + 1);
    if (rest.empty() || rest.front() == ' ' || rest.front() == '\t') {
      return util::trim_blanks(rest);
    }
  }
  return std::nullopt;
}

// A line of text at the left edge, where YAML wants a value's own lines indented.
bool at_left_edge(std::string_view line) {
  return !line.empty() && line.front() != ' ' && line.front() != '\t';
}

// Whether YAML reads `line` alone as structure (a key, a list item, a comment) rather than
// text: "user: hi" and "- a" are structure, "<example>" and "Use it: now: or later" are not.
bool reads_as_structure(std::string_view line) {
  try {
    const YAML::Node node = YAML::Load(std::string(line));
    return node.IsMap() || node.IsSequence() || node.IsNull();
  } catch (const YAML::Exception&) {
    return false;
  }
}

// A line that can only be text running on: at the left edge, and not YAML structure.
bool is_prose(std::string_view line) {
  return at_left_edge(line) && !reads_as_structure(line);
}

bool is_blank_line(std::string_view line) {
  return util::trim_blanks(line).empty();
}

// Whether the key on `key_line` has a text value that runs on in `following` (the lines up to
// the next key). A line of prose among them says so; lines at the left edge that read as keys
// ("user: ...") then run on too, but alone they may be YAML broken some other way (a tab under
// a key nib does not know), whose error should stand.
bool runs_on(std::string_view key_line, std::span<const std::string_view> following) {
  const std::optional<std::string_view> value = known_key_value(key_line);
  if (!value || value->empty() || kStructureStarts.find(value->front()) != std::string_view::npos) {
    return false;
  }
  return std::any_of(following.begin(), following.end(), is_prose);
}

// What YAML reads from `value` when it is quoted whole ("'a: b'" → "a: b"), else nullopt.
std::optional<std::string> whole_quoted_text(std::string_view value) {
  if (value.front() != '"' && value.front() != '\'') return std::nullopt;
  try {
    const YAML::Node node = YAML::Load("key: " + std::string(value))["key"];
    if (node.IsScalar()) return node.Scalar();
  } catch (const YAML::Exception&) {
  }
  return std::nullopt;
}

// The lines of a value that runs on: the key line's `value`, then `more`, as written. Quotes
// are not text: a value quoted whole on the key line is unquoted, and a quote opened there and
// closed at the end of the last line is dropped at both ends.
std::vector<std::string> value_lines(std::string_view value,
                                     std::span<const std::string_view> more) {
  std::vector<std::string> lines{std::string(value)};
  lines.insert(lines.end(), more.begin(), more.end());
  const char quote = value.front();
  if (std::optional<std::string> unquoted = whole_quoted_text(value)) {
    lines.front() = std::move(*unquoted);
  } else if ((quote == '"' || quote == '\'') && lines.size() > 1 && lines.back().ends_with(quote)) {
    lines.front().erase(0, 1);
    lines.back().pop_back();
  }
  return lines;
}

// Appends to `out` the key on `key_line`, whose value runs on in `following`, as a literal
// block scalar: "key: |2-", then the value's lines indented by two (blank ones empty), then
// `following`'s trailing blank lines, which the "-" leaves out of the value. The explicit
// indentation lets a line start with blanks of its own. Records the line added in `added`.
void append_literal_block(std::string_view key_line, std::span<const std::string_view> following,
                          std::vector<std::string>& out, std::vector<int>& added) {
  std::size_t end = following.size();
  while (end > 0 && is_blank_line(following[end - 1])) --end;
  out.push_back(std::string(key_line.substr(0, key_line.find(':'))) + ": |2-");
  added.push_back(static_cast<int>(out.size()));
  for (const std::string& line : value_lines(*known_key_value(key_line), following.first(end))) {
    out.push_back(is_blank_line(line) ? std::string() : "  " + line);
  }
  out.insert(out.end(), following.size() - end, std::string());
}

}  // namespace

int RewrittenYaml::original_line(int line) const {
  // An added line holds the value of the key on the line before it, so it maps to that line.
  const auto added_so_far = std::upper_bound(added_lines.begin(), added_lines.end(), line);
  return line - static_cast<int>(added_so_far - added_lines.begin());
}

std::optional<std::string> quote_unparseable_values(std::string_view yaml) {
  std::vector<std::string> lines;
  bool changed = false;
  for (const std::string_view line : split_lines(yaml)) {
    if (const std::string_view value = value_to_quote(line); !value.empty()) {
      lines.push_back(
          std::string(line.substr(0, static_cast<std::size_t>(value.data() - line.data()))) +
          single_quoted(value));
      changed = true;
    } else {
      lines.emplace_back(line);
    }
  }
  if (!changed) return std::nullopt;
  return joined_lines(lines);
}

std::optional<RewrittenYaml> fold_unindented_continuations(std::string_view yaml) {
  const std::vector<std::string_view> lines = split_lines(yaml);
  std::vector<std::string> out;
  RewrittenYaml folded;
  for (std::size_t key = 0; key < lines.size();) {
    std::size_t next = key + 1;
    while (next < lines.size() && !known_key_value(lines[next])) ++next;
    const std::span<const std::string_view> following(lines.data() + key + 1, next - key - 1);
    if (runs_on(lines[key], following)) {
      append_literal_block(lines[key], following, out, folded.added_lines);
    } else {
      out.insert(out.end(), lines.begin() + static_cast<std::ptrdiff_t>(key),
                 lines.begin() + static_cast<std::ptrdiff_t>(next));
    }
    key = next;
  }
  if (folded.added_lines.empty()) return std::nullopt;
  folded.text = joined_lines(out);
  return folded;
}

std::vector<RewrittenYaml> lenient_readings(std::string_view yaml) {
  std::vector<RewrittenYaml> readings;
  if (std::optional<std::string> quoted = quote_unparseable_values(yaml)) {
    readings.push_back({std::move(*quoted), {}});
  }
  if (std::optional<RewrittenYaml> folded = fold_unindented_continuations(yaml)) {
    std::optional<std::string> quoted = quote_unparseable_values(folded->text);
    readings.push_back(*folded);
    if (quoted) readings.push_back({std::move(*quoted), folded->added_lines});
  }
  return readings;
}

}  // namespace nib::extensions
