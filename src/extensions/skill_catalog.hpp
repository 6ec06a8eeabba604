#pragma once
// Skills in Claude Code's format (its "Agent Skills" page, code.claude.com/docs/en/skills, and
// the Agent Skills specification, agentskills.io/specification): a folder holding SKILL.md,
// whose front matter says what the skill is for and whose body is the instructions; other files
// in the folder are resources the instructions name. Loading and listing only: how the model
// reads a skill is the system prompt's business. Reads files only; thread-safe.
//
//   ---
//   name: pdf-forms              optional; the skill's name, else the folder's
//   description: Fills PDF...    recommended; the model picks skills by it
//   argument-hint: [file]        optional; shown beside /pdf-forms in the menu
//   model: haiku                 optional; absent or "inherit": the session's model
//   disable-model-invocation: true   optional: only the user can start it (not listed)
//   user-invocable: false            optional: only the model can use it (no /name)
//   ---
//
// The skill's identity is its `name`, as in Claude Code, or without one its folder's name; either
// must be a valid name (definition_files' rule). A `name` that is not valid is noted and the
// folder's name used, so the skill still loads. Without a description the body's first line
// stands in (noted), as in Claude Code. Other keys (allowed-tools, context, agent, license,
// metadata, ...) are accepted and ignored.
//
// Folders, best first: ~/.config/nib/skills, ~/.claude/skills, <project>/.nib/skills,
// <project>/.claude/skills. The user's come first because Claude Code documents skills so
// (enterprise, then personal, then project): a repository cannot replace a skill the user
// relies on with its own instructions. Within a folder every sub-folder with a SKILL.md is a
// skill; other sub-folders are passed over. Then the enabled plugins' skills, named after their
// plugin (my-plugin:pdf), with ${CLAUDE_PLUGIN_ROOT} in their instructions replaced; a plugin's
// skills folder may also be one skill's, holding SKILL.md itself.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "extensions/definition_files.hpp"
#include "extensions/front_matter.hpp"
#include "extensions/problem.hpp"

namespace nib::extensions {

struct SkillDefinition {
  std::string name;  // its `name`, else the folder's
  std::string description;
  std::string instructions;          // the body, without leading and trailing blank lines
  std::string argument_hint;         // "" when none
  std::optional<std::string> model;  // as written; nullopt: the session's model
  bool model_invocable = true;       // false: `disable-model-invocation: true`
  bool user_invocable = true;        // false: `user-invocable: false`
  Origin origin = Origin::kUserNib;
  std::filesystem::path file;  // .../<name>/SKILL.md; its folder holds the resources
};

using SkillParse = DefinitionParse<SkillDefinition>;

// The skill in `document`, read from `file` (".../<folder>/SKILL.md"). Problems that leave it
// out: no front matter, neither description nor instructions, no valid `name` and a folder name
// that is not valid either, a known key of the wrong type. Notes: a `name` that is not valid, a
// missing description.
SkillParse parse_skill(const MarkdownDocument& document, const std::filesystem::path& file,
                       Origin origin);

struct SkillCatalog {
  std::vector<SkillDefinition> skills;  // sorted by name
  std::vector<Problem> problems;

  // The skill named `name`, or nullptr.
  const SkillDefinition* find(std::string_view name) const;
};

SkillCatalog load_skills(const ExtensionRoots& roots);

// The skills the model may use (model_invocable), sorted by name, for the system prompt:
//   "- pdf-forms: Fills PDF forms ...\n"
// Names and descriptions only: the skill tool (skill_tool.hpp) gives the body and the folder.
// Descriptions are cut as in agent_listing. "" when there are none.
std::string skill_listing(const std::vector<SkillDefinition>& skills);

}  // namespace nib::extensions
