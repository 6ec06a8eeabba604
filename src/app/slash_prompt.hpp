#pragma once
// What a prompt that starts with "/NAME" means besides nib's built-in commands: a custom
// command (its body with the arguments filled in and @path files included) or a skill the user
// starts (its instructions, with the rest as its arguments). Print mode runs it as the prompt
// (`nib -p "/review src/foo.cpp"`); the interactive mode after its built-in commands. As in
// Claude Code, a skill wins over a command of the same name. Reads the files a command
// includes; thread-safe.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "app/extension_setup.hpp"
#include "app/model_config.hpp"
#include "app/settings.hpp"
#include "extensions/command_expansion.hpp"
#include "permissions/rule_set.hpp"
#include "util/result.hpp"

namespace nib::app {

struct SlashPrompt {
  std::string name;  // "review", as typed
  // What the model receives as the user's message once its !`command`s ran (command_shell).
  extensions::CommandPrompt prompt;
  std::optional<std::string> model;  // the command's or skill's `model`, as written
  // What a command's allowed-tools allow during its run (command_shell); null for none.
  std::shared_ptr<const permissions::RuleSet> grants;
};

// The meaning of `prompt`; nullopt when it is not a "/NAME" prompt, or when /NAME is an
// existing path ("/tmp is full"): then it is plain text. A failure names the unknown command
// and the closest commands and skills, or the folders between which /NAME is ambiguous, or a
// broken allowed-tools rule.
util::Result<std::optional<SlashPrompt>> expand_slash_prompt(std::string_view prompt,
                                                             const UserExtensions& extensions,
                                                             const std::filesystem::path& cwd);

// `current` with the model `name` (an id or a family alias, model_named) of its provider: for
// a command or skill that names its model. A failure says the provider lists no such model.
util::Result<ModelConfig> with_named_model(const ModelConfig& current,
                                           const Configuration& configuration,
                                           const std::string& name);

}  // namespace nib::app
