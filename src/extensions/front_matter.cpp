#include "extensions/front_matter.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "extensions/limits.hpp"
#include "extensions/yaml_leniency.hpp"
#include "util/bounded_read.hpp"
#include "util/byte_size.hpp"
#include "util/utf8.hpp"

namespace nib::extensions {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
constexpr std::string_view kDelimiter = "---";

// Thrown inside the conversion when the front matter passes a limit; caught below.
struct LimitExceeded {
  std::string message;
};

// The 1-based line of the first byte of `text` that is not valid UTF-8, or 0 when all are.
int first_invalid_utf8_line(std::string_view text) {
  int line = 1;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t length = util::utf8_sequence_length(text, pos);
    if (length == 0) return line;
    if (text[pos] == '\n') ++line;
    pos += length;
  }
  return 0;
}

std::string without_carriage_returns_before_newlines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += text[i];
  }
  return out;
}

// True when `line` (without its newline) is the delimiter, with trailing blanks allowed.
bool is_delimiter(std::string_view line) {
  if (!line.starts_with(kDelimiter)) return false;
  return line.substr(kDelimiter.size()).find_first_not_of(" \t") == std::string_view::npos;
}

// Converts yaml-cpp nodes to JSON within the limits (see the header for the mapping).
class Converter {
 public:
  nlohmann::json convert(const YAML::Node& node, std::size_t depth) {
    if (++values_ > kMaxFrontMatterValues) {
      throw LimitExceeded{"holds more than " + std::to_string(kMaxFrontMatterValues) +
                          " values (with aliases expanded); front matter needs a few dozen"};
    }
    if (depth > kMaxFrontMatterDepth) {
      throw LimitExceeded{"is nested more than " + std::to_string(kMaxFrontMatterDepth) +
                          " levels deep"};
    }
    switch (node.Type()) {
      case YAML::NodeType::Scalar:
        return node.Scalar();
      case YAML::NodeType::Sequence: {
        nlohmann::json array = nlohmann::json::array();
        for (const auto& item : node) array.push_back(convert(item, depth + 1));
        return array;
      }
      case YAML::NodeType::Map: {
        nlohmann::json object = nlohmann::json::object();
        for (const auto& entry : node) {
          object[entry.first.IsScalar() ? entry.first.Scalar() : ""] =
              convert(entry.second, depth + 1);
        }
        return object;
      }
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        break;
    }
    return nullptr;
  }

 private:
  std::size_t values_ = 0;
};

// Whether `text` loads as YAML, into `root`.
bool load_yaml(const std::string& text, YAML::Node& root) {
  try {
    root = YAML::Load(text);
    return true;
  } catch (const YAML::Exception&) {
    return false;
  }
}

// The first of the lenient readings of `yaml` (yaml_leniency) that loads, into `root`; nullopt
// when none does.
std::optional<RewrittenYaml> load_leniently(std::string_view yaml, YAML::Node& root) {
  for (RewrittenYaml& reading : lenient_readings(yaml)) {
    if (load_yaml(reading.text, root)) return std::move(reading);
  }
  return std::nullopt;
}

// Parses the YAML between the delimiters; `first_line` is the file line it starts on.
MarkdownParse parse_front_matter(const std::string& yaml, int first_line,
                                 const std::filesystem::path& file, FrontMatter& out) {
  const auto fail = [&](int line, std::string message) {
    return MarkdownParse{std::nullopt, Problem{file, line, std::move(message)}};
  };
  YAML::Node root;
  // What was loaded, to take its lines back to the file's; no lines added when strict YAML was.
  RewrittenYaml loaded;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::DeepRecursion& error) {
    return fail(first_line + std::max(error.mark.line, 0),
                "front matter is nested too deeply for YAML to be read");
  } catch (const YAML::Exception& error) {
    // Claude Code reads some front matter strict YAML refuses; so does nib. When that does not
    // help either, the first error is the one that names the real mistake.
    std::optional<RewrittenYaml> lenient = load_leniently(yaml, root);
    if (!lenient) {
      return fail(first_line + std::max(error.mark.line, 0),
                  "front matter is not valid YAML: " + error.msg);
    }
    loaded = std::move(*lenient);
  }
  if (root.IsNull()) return {};
  if (!root.IsMap()) {
    return fail(first_line,
                "front matter must be keys with values (\"name: value\" lines), not a " +
                    std::string(root.IsSequence() ? "list" : "single value"));
  }
  Converter converter;
  for (const auto& entry : root) {
    const int line = first_line + loaded.original_line(std::max(entry.first.Mark().line, 0));
    if (!entry.first.IsScalar() || entry.first.Scalar().empty()) {
      return fail(line, "front matter keys must be plain names such as \"description\"");
    }
    const std::string key = entry.first.Scalar();
    if (const FrontMatterField* earlier = out.find(key)) {
      return fail(line, key + ": given twice (first on line " + std::to_string(earlier->line) +
                            "); keep one");
    }
    try {
      out.fields.push_back({key, converter.convert(entry.second, 1), line});
    } catch (const LimitExceeded& error) {
      return fail(line, "front matter " + error.message);
    }
  }
  return {};
}

}  // namespace

const FrontMatterField* FrontMatter::find(std::string_view key) const {
  const auto it = std::find_if(fields.begin(), fields.end(),
                               [&](const FrontMatterField& field) { return field.key == key; });
  return it == fields.end() ? nullptr : &*it;
}

MarkdownParse parse_markdown(std::string_view text, const std::filesystem::path& file) {
  if (text.starts_with(kByteOrderMark)) text.remove_prefix(kByteOrderMark.size());
  MarkdownDocument document;
  std::string clean;
  if (const int bad_line = first_invalid_utf8_line(text)) {
    document.notes.push_back({file, bad_line,
                              "not valid UTF-8; the invalid bytes were replaced with U+FFFD "
                              "(save the file as UTF-8 to keep them)"});
    clean = without_carriage_returns_before_newlines(util::sanitize_utf8(text));
  } else {
    clean = without_carriage_returns_before_newlines(text);
  }

  const std::size_t first_end = std::min(clean.find('\n'), clean.size());
  if (!is_delimiter(std::string_view(clean).substr(0, first_end))) {
    document.body = std::move(clean);
    return {std::move(document), {}};
  }
  // Look for the closing delimiter line by line, counting lines for the body's start.
  int line = 2;
  for (std::size_t start = first_end + 1; start <= clean.size(); ++line) {
    const std::size_t end = std::min(clean.find('\n', start), clean.size());
    if (is_delimiter(std::string_view(clean).substr(start, end - start))) {
      FrontMatter front_matter;
      MarkdownParse parsed = parse_front_matter(clean.substr(first_end + 1, start - first_end - 1),
                                                2, file, front_matter);
      if (!parsed.problem.message.empty()) return parsed;
      document.front_matter = std::move(front_matter);
      document.body = end < clean.size() ? clean.substr(end + 1) : "";
      document.body_line = line + 1;
      return {std::move(document), {}};
    }
    if (end >= clean.size()) break;
    start = end + 1;
  }
  return {std::nullopt,
          {file, 1, "the front matter opened by \"---\" on line 1 has no closing \"---\" line"}};
}

MarkdownParse read_markdown(const std::filesystem::path& file) {
  auto read = util::read_at_most(file, kMaxDefinitionFileBytes);
  if (!read.ok()) return {std::nullopt, {file, 0, read.error()}};
  const std::string& content = read.value();
  if (content.size() > kMaxDefinitionFileBytes) {
    return {std::nullopt,
            {file, 0,
             "is larger than " + util::format_byte_size(kMaxDefinitionFileBytes) +
                 "; a definition is read whole (an agent's body is sent with every request), "
                 "so move long reference material into files the instructions name"}};
  }
  return parse_markdown(content, file);
}

}  // namespace nib::extensions
