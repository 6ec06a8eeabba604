#pragma once
// The shell commands a custom command's prompt runs before it is sent, as Claude Code's
// slash-command page has them: `!` followed by an inline code span ("Status: !`git status`")
// or a fenced block opened with "```!", whose output takes the span's place in the prompt.
// Finding them is here; running them belongs to the app (through the run's gate and sandbox).
// Pure; thread-safe.
//
// An inline `!` counts at the start of the text or after a blank or "(", so that prose such as
// "done!`x`" stays text. Spans inside ordinary fenced code blocks are examples and stay as they
// are written.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nib::extensions {

// One command: the bytes [begin, end) of the prompt it replaces, and the command itself.
struct PromptCommand {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string command;
};

// The commands of `text`, in order.
std::vector<PromptCommand> find_prompt_commands(std::string_view text);

// `text` with each of `commands` (find_prompt_commands of a prefix of `text`) replaced by the
// output at the same index of `outputs`.
std::string with_command_outputs(std::string_view text, const std::vector<PromptCommand>& commands,
                                 const std::vector<std::string>& outputs);

}  // namespace nib::extensions
