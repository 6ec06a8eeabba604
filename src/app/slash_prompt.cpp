#include "app/slash_prompt.hpp"

#include <vector>

#include "app/command_shell.hpp"
#include "extensions/command_expansion.hpp"
#include "extensions/skill_tool.hpp"
#include "ui/slash_commands.hpp"
#include "util/edit_distance.hpp"

namespace nib::app {
namespace {

namespace fs = std::filesystem;

// Typing mistakes an unknown command may have and still get a suggestion.
constexpr std::size_t kSuggestionDistance = 3;

std::string unknown_command(const std::string& name, const UserExtensions& extensions) {
  std::vector<std::string> names;
  std::string commands;
  for (const extensions::CommandDefinition& command : extensions.commands->commands) {
    names.push_back(command.qualified_name());
    commands += (commands.empty() ? "/" : ", /") + command.qualified_name();
  }
  std::string skills;
  for (const extensions::SkillDefinition& skill : extensions.skills->skills) {
    if (!skill.user_invocable) continue;
    names.push_back(skill.name);
    skills += (skills.empty() ? "/" : ", /") + skill.name;
  }
  std::string message = "unknown command /" + name + ".";
  const std::string close = util::closest_name(name, names, kSuggestionDistance);
  if (!close.empty()) message += " Did you mean /" + close + "?";
  message += commands.empty() ? " No custom commands" : " Custom commands: " + commands;
  message += skills.empty() ? "; no skills." : "; skills: " + skills + ".";
  return message + " (To send text that starts with '/', begin it with \"//\".)";
}

}  // namespace

util::Result<std::optional<SlashPrompt>> expand_slash_prompt(std::string_view prompt,
                                                             const UserExtensions& extensions,
                                                             const fs::path& cwd) {
  using Result = util::Result<std::optional<SlashPrompt>>;
  const std::optional<ui::CommandLine> command = ui::parse_command(prompt);
  std::error_code error;
  if (!command || fs::exists("/" + command->name, error)) return std::optional<SlashPrompt>();
  const extensions::SkillDefinition* skill = extensions.skills->find(command->name);
  if (skill != nullptr && skill->user_invocable) {
    return std::optional<SlashPrompt>(
        SlashPrompt{command->name,
                    {extensions::loaded_skill_text(*skill, command->argument), {}},
                    skill->model});
  }
  const auto found = extensions.commands->find(command->name);
  if (!found.ok()) {
    // Ambiguous between folders: the catalog's own message lists them.
    if (found.error().starts_with("unknown")) {
      return Result::failure(unknown_command(command->name, extensions));
    }
    return Result::failure(found.error());
  }
  const extensions::CommandDefinition& definition = *found.value();
  auto grants = command_grants(definition, cwd);
  if (!grants.ok()) return Result::failure(grants.error());
  return std::optional<SlashPrompt>(SlashPrompt{
      command->name, extensions::expand_command(definition.body, command->argument, cwd),
      definition.model, std::move(grants.value())});
}

util::Result<ModelConfig> with_named_model(const ModelConfig& current,
                                           const Configuration& configuration,
                                           const std::string& name) {
  const provider::ProviderEntry* entry = configuration.find_provider(current.provider);
  const provider::ModelEntry* model = entry != nullptr ? model_named(*entry, name) : nullptr;
  if (model == nullptr) {
    return util::Result<ModelConfig>::failure("the provider " + current.provider +
                                              " lists no model \"" + name + "\"");
  }
  ModelConfig config = current;
  config.model = provider::model_info(*model);
  config.prices = model->prices;
  return config;
}

}  // namespace nib::app
