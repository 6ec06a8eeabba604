#pragma once
// The run-time half of a custom command (slash_prompt.hpp): what its allowed-tools allow, and
// its !`command`s (extensions/prompt_commands.hpp) run before the prompt is sent. As in Claude
// Code, each command runs as a bash call would, and only as one would: through the run's
// guard (the PreToolUse hooks, the permission policy with the command's allowed-tools, the
// sandbox, the PostToolUse hooks), with nobody asked, so a command that the rules and the
// allowed-tools do not allow is refused and the prompt is not sent. Thread-safe as the guard is.

#include <filesystem>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>

#include "app/run_guard.hpp"
#include "extensions/command_catalog.hpp"
#include "extensions/command_expansion.hpp"
#include "permissions/rule_set.hpp"
#include "util/result.hpp"

namespace nib::app {

// The allow rules `command`'s allowed-tools give its run, for the gate (null when it lists
// none). A rule that does not parse fails, naming the file and the rule. "/path" patterns start
// at `project`.
util::Result<std::shared_ptr<const permissions::RuleSet>> command_grants(
    const extensions::CommandDefinition& command, const std::filesystem::path& project);

// `prompt`'s text with each command's output in its place, the commands run one after the
// other in `guard`'s working tree. A command that is refused or cannot run fails with
// "/NAME: !`COMMAND` was not run: WHY"; one that runs and fails gives its output and status.
util::Result<std::string> run_prompt_commands(const extensions::CommandPrompt& prompt,
                                              const std::string& name, RunGuard& guard,
                                              std::shared_ptr<const permissions::RuleSet> grants,
                                              std::stop_token stop);

// What turns an admitted prompt's text into the one sent (prompt_input.hpp's admit_prompt, once
// the UserPromptSubmit hooks let the prompt through); a failure says why nothing is sent.
using PromptFinish = std::function<util::Result<std::string>(std::stop_token)>;

// run_prompt_commands for the command /`name`'s `prompt`, for when its prompt is admitted;
// empty when the prompt runs no command. `guard` must outlive it.
PromptFinish command_finish(extensions::CommandPrompt prompt, std::string name, RunGuard& guard,
                            std::shared_ptr<const permissions::RuleSet> grants);

}  // namespace nib::app
