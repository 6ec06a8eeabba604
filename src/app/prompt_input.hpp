#pragma once
// A prompt as the user typed it, turned into what the model receives, alike for every front end
// (print mode, `nib acp`, the Agent SDK's transport; the interactive mode admits its own):
// /mcp__SERVER__PROMPT ARGS fetched from its MCP server (its text, then its images), /NAME ARGS
// expanded as the custom command or skill NAME (on the model it names, when its provider has it,
// its !`command`s run through the run's guard: command_shell.hpp), anything else as it is.

#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "app/command_shell.hpp"
#include "app/hook_setup.hpp"
#include "app/model_config.hpp"
#include "app/run_context.hpp"
#include "app/session_setup.hpp"
#include "core/messages.hpp"
#include "mcp/server_set.hpp"

namespace nib::app {

struct PromptInput {
  std::string text;     // a command's !`command`s as written, until `finish` runs them
  core::Content media;  // after the text in the user's turn
  ModelConfig model;    // the run's: `model`, or the one a command names
  std::vector<std::string> warnings;  // a named model that could not be had, and the like
  // What a custom command's allowed-tools allow during the run (FrontEndWiring::grants).
  std::shared_ptr<const permissions::RuleSet> grants;
  PromptFinish finish;  // for admit_prompt; empty when there is nothing to run
};

struct PromptFailure {
  std::string message;
  bool usage = false;  // the prompt names no such command or prompt (print mode: exit 2)
};

// `prompt` resolved; a failure says why nothing can be sent. A command's !`command`s wait for
// admit_prompt (PromptInput::finish). An MCP prompt's server may still be starting: waited for
// (within its startup timeout) or until `stop`.
std::variant<PromptInput, PromptFailure> resolve_prompt(const std::string& prompt,
                                                        const ModelConfig& model,
                                                        const RunContext& context,
                                                        mcp::ServerSet* servers,
                                                        std::stop_token stop);

// The blocks a front end puts around the typed text of a prompt: `before` it (a skill /NAME
// loaded for it), `after` it (the images and files the user attached, an MCP prompt's images).
struct PromptBlocks {
  core::Content before;
  core::Content after;
};

// Puts `text` through the UserPromptSubmit hooks (and, for the session's first prompt, the
// SessionStart hooks, `session_start` naming the source; "" for later ones) and, when they let
// it through, runs `finish` on it (a command's !`command`s: nothing runs for a refused prompt)
// and adds the result to `session` as the next prompt, `blocks` around it, with `notices`
// (core::PendingNotices) first. Returns the refusal ("hook <command>: <reason>", or why
// `finish` failed), or nothing when the prompt was added.
std::optional<std::string> admit_prompt(hooks::HookSet& hooks, RunSession& session,
                                        const std::string& text, PromptBlocks blocks,
                                        const std::string& session_start,
                                        core::PendingNotices* notices, std::stop_token stop,
                                        const HookNotice& notice, const PromptFinish& finish = {});

}  // namespace nib::app
