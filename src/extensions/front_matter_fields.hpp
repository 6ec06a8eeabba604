#pragma once
// Typed reading of front matter fields for the three formats (agents, skills, commands): each
// accessor returns the value or nullopt (absent, or null as in "model:"), and a value of the
// wrong type becomes a problem at its key's line, so the format can leave the definition out.
// Unknown keys are never looked at: Claude Code's files carry many (color, hooks, ...). A key a
// format reads must be among the front-matter keys yaml_leniency knows, or a value running on
// above it would swallow it. Also the frame agents and skills share around reading a whole
// definition (parse_definition). Not thread-safe (one reader per file).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extensions/definition_files.hpp"
#include "extensions/front_matter.hpp"
#include "extensions/problem.hpp"

namespace nib::extensions {

class FieldReader {
 public:
  FieldReader(const FrontMatter& front_matter, std::filesystem::path file);

  // A single value (YAML scalar), as written; a list or mapping is a problem.
  std::optional<std::string> text(std::string_view key);
  // A single value that must be there and not be empty; else a problem
  // "<key>: missing or empty; <advice>" at the key's line (line 1 when the key is absent).
  std::optional<std::string> required_text(std::string_view key, std::string_view advice);
  // Text shown to people, such as an argument hint: a single value, or a list of single values
  // given back in brackets ("[file]", which YAML reads as a list of one), as they were
  // written. A mapping is a problem.
  std::optional<std::string> display_text(std::string_view key);
  // A single value, or a list of single values; a single value stays one element (the format
  // splits "Read, Grep" itself). A mapping, or a list holding one, is a problem.
  std::optional<std::vector<std::string>> text_or_list(std::string_view key);
  // true or false (as YAML 1.2 writes them: true, True, TRUE, false, ...); else a problem.
  std::optional<bool> flag(std::string_view key);
  // A whole number from 1 to 1,000,000; else a problem.
  std::optional<int> positive_count(std::string_view key);

  // The key's line; 1 (the front matter's opening line) when the key is absent, for problems
  // about a missing key.
  int line(std::string_view key) const;
  // Records "<key>: <message>" at the key's line.
  void fail(std::string_view key, const std::string& message);

  // Whether no accessor or fail() reported a problem.
  bool ok() const { return problems_.empty(); }
  std::vector<Problem>& problems() { return problems_; }

 private:
  const FrontMatter& front_matter_;
  std::filesystem::path file_;
  std::vector<Problem> problems_;
};

// The `model` key, which agents, skills and commands share: the model as written ("sonnet",
// "claude-opus-4-1"), or nullopt for the caller's model (absent, empty, or "inherit").
std::optional<std::string> read_model(FieldReader& reader);

// Reads `document`, found at `file`, as a Definition (an agent or a skill, whose front matter
// is required) from `origin`: `read(reader, definition, notes)` fills in the fields beyond
// origin and file. A problem the reader records leaves the definition out; one added to `notes`
// does not. Without front matter the problem is "no front matter: <form>" at line 1.
template <class Definition, class Read>
DefinitionParse<Definition> parse_definition(const MarkdownDocument& document,
                                             const std::filesystem::path& file, Origin origin,
                                             std::string_view form, Read read) {
  DefinitionParse<Definition> parse;
  parse.problems = document.notes;
  if (!document.front_matter) {
    parse.problems.push_back({file, 1, "no front matter: " + std::string(form)});
    return parse;
  }
  FieldReader reader(*document.front_matter, file);
  Definition definition;
  definition.origin = origin;
  definition.file = file;
  read(reader, definition, parse.problems);
  if (reader.ok()) parse.definition = std::move(definition);
  parse.problems.insert(parse.problems.end(), reader.problems().begin(), reader.problems().end());
  return parse;
}

}  // namespace nib::extensions
