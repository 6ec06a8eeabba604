#pragma once
// MCP prompts as slash commands, /mcp__<server>__<prompt> (Claude Code's names): the commands of
// every ready server's prompts, for /help and completion; the words typed after one mapped to
// the prompt's declared arguments in order (split as a custom command's are, so "New York" in
// quotes is one word), the required ones checked; and prompts/get's messages as the user's next
// turn. The interactive mode and print mode (`nib -p "/mcp__everything__simple-prompt"`) both
// use them. Thread-safe as mcp::ServerSet is.

#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/messages.hpp"
#include "mcp/server_set.hpp"
#include "ui/slash_commands.hpp"
#include "util/result.hpp"

namespace nib::app {

// Whether the command `name` (without the slash) is meant as an MCP prompt: "mcp__...".
bool names_mcp_prompt(std::string_view name);

// The slash commands of the ready servers' prompts, with their arguments ("<city> [state]")
// and descriptions. A prompt whose name a command cannot hold (blanks, "/") is left out.
std::vector<ui::ExtraCommand> mcp_prompt_commands(const std::vector<mcp::ServerStatus>& statuses);

// The arguments object for `prompt` from the words `typed` after /`command`: one word for each
// declared argument, in order. A failure says which required argument is missing, or that
// there are too many words, with the command's usage.
util::Result<nlohmann::json> prompt_arguments(const std::string& command,
                                              const mcp::ServerPrompt& prompt,
                                              std::string_view typed);

struct McpPromptCall {
  std::shared_ptr<mcp::ServerConnection> server;
  std::string prompt;  // the server's name for it
  nlohmann::json arguments;
};

// The call `command` asks for, from what `servers` (null: none configured) know now; a failure
// says why not: no such server or prompt (naming those there are), the server not ready (still
// starting, failed, not approved), or the arguments (prompt_arguments).
util::Result<McpPromptCall> prepare_mcp_prompt(const mcp::ServerSet* servers,
                                               const ui::CommandLine& command);

// The user's turn a prompt gives: its text for the hooks and the model, its images after it.
struct McpPromptTurn {
  std::string text;     // the text blocks, joined by blank lines
  core::Content media;  // the image blocks, in order
};

// prompts/get (within the server's call timeout; `stop` cancels it).
util::Result<McpPromptTurn> get_mcp_prompt(const McpPromptCall& call, std::stop_token stop);

}  // namespace nib::app
