#pragma once
// The skills and custom commands a session offers, loaded once at start from the working
// directory's and the user's folders (.nib/, .claude/, ~/.config/nib/, ~/.claude/), with the
// problems found in them for the start-up report. Wiring only; the catalogs are immutable
// once loaded, so they are shared by every thread of the session.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "extensions/command_catalog.hpp"
#include "extensions/definition_files.hpp"
#include "extensions/plugin_catalog.hpp"
#include "extensions/skill_catalog.hpp"
#include "ui/slash_commands.hpp"
#include "util/user_places.hpp"

namespace nib::app {

// Where definitions are looked for: the working directory, nib's user folder
// (~/.config/nib), the home directory of `places` (for ~/.claude) and the plugins `plugins`
// loaded (app/plugin_setup.hpp; null: none).
extensions::ExtensionRoots extension_roots(const util::UserPlaces& places,
                                           const std::filesystem::path& cwd,
                                           const std::filesystem::path& user_config_dir,
                                           const extensions::PluginCatalog* plugins);

struct UserExtensions {
  std::shared_ptr<const extensions::SkillCatalog> skills;
  std::shared_ptr<const extensions::CommandCatalog> commands;
  // The plugins the skills, commands and agents came from, for their problems (null: none).
  std::shared_ptr<const extensions::PluginCatalog> plugins;
};

// The skills and commands under `roots`, and `plugins`' problems to report. A top-level
// command named like a built-in slash command is left out (the built-in wins) and reported.
UserExtensions load_user_extensions(const extensions::ExtensionRoots& roots,
                                    std::shared_ptr<const extensions::PluginCatalog> plugins);

// One line per problem, "a skill was left out or changed: <file>:<line>: <what>" (or "a custom
// command ...", "a plugin ..."), for stderr or a notice.
std::vector<std::string> extension_problems(const UserExtensions& extensions);

// The user-invocable skills, then the custom commands a skill of the same name does not shadow
// (by their bare name when it means them, else folder-qualified): what a front end offers as
// /NAME.
std::vector<ui::ExtraCommand> offered_user_commands(const UserExtensions& extensions);

}  // namespace nib::app
