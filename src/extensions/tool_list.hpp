#pragma once
// The splitting of a tool list, as Claude Code writes one in agent definitions' `tools` and
// `disallowedTools` and commands' `allowed-tools`, into its entries. The names themselves map to
// nib's through core/claude_tool_names.hpp. Pure; thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nib::extensions {

// One entry of a tool list: "Read", or "Bash(git:*)" with a specifier.
struct ToolEntry {
  std::string name;                      // as written, before any "("
  std::optional<std::string> specifier;  // inside the parentheses, trimmed
  std::string written;                   // the whole entry as written, for a rule's parser

  friend bool operator==(const ToolEntry&, const ToolEntry&) = default;
};

// The entries of a tool list as Claude Code writes them: separated by commas or blanks outside
// parentheses ("Agent(worker, researcher), Read Bash(git status)" is three entries). Empty
// entries are dropped; an unclosed "(" runs to the end.
std::vector<ToolEntry> split_tool_list(std::string_view text);

}  // namespace nib::extensions
