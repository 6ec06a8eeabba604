#pragma once
// Reading front matter that strict YAML refuses but Claude Code's files carry, still through
// yaml-cpp: the text is rewritten into YAML that says what Claude Code reads, and parsed again.
//
// Two habits need it. Plain values such as `argument-hint: [issue] [priority]` (the form Claude
// Code's own slash-command page shows), `description: Use it when: the user asks` (a ": " inside
// a plain value), or `description: @reviewer ...` (a reserved indicator): Claude Code reads them
// as the text written. And descriptions that run on at the left edge, as in Anthropic's own
// agents (agent-creator, code-simplifier):
//
//   description: Use this agent when the user asks to "create an agent". Examples:
//
//   <example>
//   user: "Create an agent that reviews code"
//   </example>
//
//   model: sonnet
//
// where Claude Code reads everything up to the `model:` line as the description. Pure;
// thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nib::extensions {

// `yaml` with each top-level `key: value` line whose value YAML cannot parse on its own put in
// single quotes, so the value is the text written; nullopt when there is no such line (the
// YAML is broken some other way, and its own error should be reported). A value is left alone
// when quoting cannot be what was meant: it is quoted already, starts a block (| or >), an
// anchor, alias or tag, or opens a list or mapping ("[", "{") that does not close on its line.
std::optional<std::string> quote_unparseable_values(std::string_view yaml);

// YAML rewritten from front matter, and the way back to the front matter's lines.
struct RewrittenYaml {
  std::string text;
  // The lines of `text` (0-based, ascending) that the rewrite added.
  std::vector<int> added_lines;

  // The line of the front matter that line `line` of `text` (0-based) was written on.
  int original_line(int line) const;
};

// `yaml` with each key whose value runs on at the left edge made a literal block scalar holding
// the value as written: the key line's value, then every line up to the next line that begins
// a front-matter key Claude Code documents (for agents, commands or skills), blank lines kept
// and trailing ones dropped. A value runs on when those lines hold prose at the left edge, a
// line YAML does not read as a key, list item or comment ("<example>"); lines that read as keys
// ("user: ...", or a key nib does not know) are then part of the value too, as Claude Code
// reads them. A key line value quoted whole is unquoted first; one whose quote closes at the
// end of the last line loses both quotes. Keys whose value opens a block, list, mapping, anchor,
// alias or tag, or is empty, are left alone. Each rewritten key adds one line (the value starts
// on the line after `key: |2-`). nullopt when no value runs on.
std::optional<RewrittenYaml> fold_unindented_continuations(std::string_view yaml);

// What to parse, in order, when strict YAML refuses `yaml`: the values quoted
// (quote_unparseable_values), the continuation lines folded (fold_unindented_continuations),
// then both; each only when it changed something. The first that parses is how Claude Code
// reads the front matter; when none does, strict YAML's error names the real mistake.
std::vector<RewrittenYaml> lenient_readings(std::string_view yaml);

}  // namespace nib::extensions
