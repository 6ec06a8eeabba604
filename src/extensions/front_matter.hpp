#pragma once
// Markdown files with YAML front matter, the format of Claude Code's (and nib's) agent
// definitions, skills and custom commands: an opening line "---", YAML, a closing line "---",
// then the Markdown body. Reading and splitting only; what the keys mean belongs to each format
// (agent_definition, skill_catalog, command_catalog). Pure apart from read_markdown's file read;
// thread-safe.
//
// The text is taken as Claude Code's files are written in practice: a UTF-8 byte order mark is
// skipped, CRLF line ends become LF (in the body too), and the delimiter lines may carry trailing
// spaces. Invalid UTF-8 is replaced with U+FFFD and noted, so a Latin-1 byte in a prompt costs
// a note, not the definition.
//
// Values: yaml-cpp parses the YAML (its grammar is large: lists, quoted and multi-line values),
// but no yaml-cpp type leaves this module. Each value becomes nlohmann::json: a scalar is its
// text as written, unquoted (YAML's untyped scalars: `42`, `true`, `off` stay "42", "true",
// "off", and the format decides what they mean), a sequence an array, a mapping an object, and
// an empty value or `~`/`null` is null. Aliases are expanded, within kMaxFrontMatterValues.
//
// Leniency: front matter strict YAML refuses is read as Claude Code reads it (yaml_leniency):
// with the plain values it cannot parse taken as the text written, so the documented
// `argument-hint: [issue] [priority]` is the text "[issue] [priority]", and with a value that
// runs on in lines at the left edge (Anthropic's agents' descriptions with their <example>
// blocks) taken whole, up to the next front-matter key. Lines in problems are the file's.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extensions/problem.hpp"

namespace nib::extensions {

// One top-level key of the front matter.
struct FrontMatterField {
  std::string key;
  nlohmann::json value;
  int line = 0;  // the key's line in the file (1-based)
};

struct FrontMatter {
  std::vector<FrontMatterField> fields;  // in file order; no key appears twice

  // The field named `key`, or nullptr.
  const FrontMatterField* find(std::string_view key) const;
};

struct MarkdownDocument {
  // nullopt when the file does not start with a "---" line (it has no front matter); "---"
  // followed directly by "---" is an empty front matter, not a missing one.
  std::optional<FrontMatter> front_matter;
  std::string body;   // everything after the closing "---" line (the whole text without one)
  int body_line = 1;  // the file line the body starts on, for messages about the body
  // Things worth telling that do not stop the file loading (invalid UTF-8 replaced).
  std::vector<Problem> notes;
};

// A document, or the problem that stops the file from being read: an unclosed front matter,
// YAML that does not parse (the line is yaml-cpp's, counted from the top of the file), front
// matter that is not a mapping, a key given twice, values past the limits.
struct MarkdownParse {
  std::optional<MarkdownDocument> document;
  Problem problem;  // set when `document` is empty
};

// Splits and parses `text`, the content of `file` (named in problems only).
MarkdownParse parse_markdown(std::string_view text, const std::filesystem::path& file);

// Reads `file` (at most kMaxDefinitionFileBytes; a larger or unreadable file is a problem) and
// parses it.
MarkdownParse read_markdown(const std::filesystem::path& file);

}  // namespace nib::extensions
