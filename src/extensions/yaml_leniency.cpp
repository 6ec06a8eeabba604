#include "extensions/yaml_leniency.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace nib::extensions {
namespace {

// Characters that make quoting a value wrong: it is quoted already, or it starts something
// YAML gives a meaning across lines (a block scalar, an anchor, an alias, a tag).
constexpr std::string_view kLeaveAloneStarts = "\"'|>&*!#";

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
  std::string_view value = line.substr(colon + 2);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (value.empty() || kLeaveAloneStarts.find(value.front()) != std::string_view::npos) return {};
  if ((value.front() == '[' || value.front() == '{') && !first_collection_closes(value)) return {};
  return parses(value) ? std::string_view{} : value;
}

std::string single_quoted(std::string_view value) {
  std::string out = "'";
  for (const char c : value) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::optional<std::string> quote_unparseable_values(std::string_view yaml) {
  std::string out;
  out.reserve(yaml.size());
  bool changed = false;
  for (std::size_t start = 0; start < yaml.size();) {
    const std::size_t end = std::min(yaml.find('\n', start), yaml.size());
    const std::string_view line = yaml.substr(start, end - start);
    if (const std::string_view value = value_to_quote(line); !value.empty()) {
      out += line.substr(0, static_cast<std::size_t>(value.data() - line.data()));
      out += single_quoted(value);
      changed = true;
    } else {
      out += line;
    }
    if (end < yaml.size()) out += '\n';
    start = end + 1;
  }
  if (!changed) return std::nullopt;
  return out;
}

}  // namespace nib::extensions
