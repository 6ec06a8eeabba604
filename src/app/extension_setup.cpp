#include "app/extension_setup.hpp"

#include <algorithm>

#include "ui/slash_commands.hpp"

namespace nib::app {

namespace fs = std::filesystem;

extensions::ExtensionRoots extension_roots(const util::UserPlaces& places, const fs::path& cwd,
                                           const fs::path& user_config_dir,
                                           const extensions::PluginCatalog* plugins) {
  extensions::ExtensionRoots roots{cwd, user_config_dir, places.home, {}};
  if (plugins != nullptr) roots.plugins = plugins->plugins;
  return roots;
}

UserExtensions load_user_extensions(const extensions::ExtensionRoots& roots,
                                    std::shared_ptr<const extensions::PluginCatalog> plugins) {
  std::vector<std::string> built_in;
  for (const ui::SlashCommand& command : ui::slash_commands()) {
    built_in.emplace_back(command.name);
  }
  return {std::make_shared<const extensions::SkillCatalog>(extensions::load_skills(roots)),
          std::make_shared<const extensions::CommandCatalog>(
              extensions::load_commands(roots, built_in)),
          std::move(plugins)};
}

std::vector<std::string> extension_problems(const UserExtensions& extensions) {
  std::vector<std::string> lines;
  for (const extensions::Problem& problem : extensions.skills->problems) {
    lines.push_back("a skill was left out or changed: " + problem.text());
  }
  for (const extensions::Problem& problem : extensions.commands->problems) {
    lines.push_back("a custom command was left out or changed: " + problem.text());
  }
  if (extensions.plugins) {
    for (const extensions::Problem& problem : extensions.plugins->problems) {
      lines.push_back("a plugin was left out or changed: " + problem.text());
    }
  }
  return lines;
}

std::vector<ui::ExtraCommand> offered_user_commands(const UserExtensions& extensions) {
  std::vector<ui::ExtraCommand> commands;
  for (const extensions::SkillDefinition& skill : extensions.skills->skills) {
    if (skill.user_invocable) {
      commands.push_back({skill.name, skill.argument_hint, skill.description + " (skill)"});
    }
  }
  for (const extensions::CommandDefinition& command : extensions.commands->commands) {
    // The bare name when it means this command, else the folder-qualified one.
    const auto bare = extensions.commands->find(command.name);
    std::string name =
        bare.ok() && bare.value() == &command ? command.name : command.qualified_name();
    const bool shadowed =
        std::any_of(commands.begin(), commands.end(),
                    [&](const ui::ExtraCommand& skill) { return skill.name == name; });
    if (!shadowed) {
      commands.push_back(
          {std::move(name), command.argument_hint, command.description + " " + command.label()});
    }
  }
  return commands;
}

}  // namespace nib::app
