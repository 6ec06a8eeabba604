#pragma once
// How the model and the user load a skill (skill_catalog.hpp). nib's choice is a `skill` tool
// (Claude Code's Skill) rather than reading SKILL.md with the read tool: the system prompt
// lists names and descriptions only, and the tool returns the instructions with their
// arguments filled in, the folder they may name (${CLAUDE_SKILL_DIR}) and the files in it. It
// works whatever --tools leaves of the file tools, a skill the user reserved for themselves
// (disable-model-invocation) cannot be loaded by the model, and front ends show "skill
// pdf-forms" instead of a file read. `/NAME` in the interactive mode sends the same text.
// Reads the skill's folder; concurrency-safe (the catalog is not changed after loading).

#include <memory>
#include <string>
#include <string_view>

#include "core/tool.hpp"
#include "extensions/skill_catalog.hpp"

namespace nib::extensions {

inline constexpr std::string_view kSkillToolName = "skill";

// The text that loads `skill` for the model: its instructions (expand_skill with `arguments`)
// inside <skill name=... folder=...> tags, then the files of its folder (up to
// kMaxListedSkillResources, relative, hidden ones skipped).
std::string loaded_skill_text(const SkillDefinition& skill, std::string_view arguments);

// The section of the system prompt that lists the skills the model may load with the tool; ""
// when there are none.
std::string skills_prompt_section(const SkillCatalog& catalog);

// A skill tool over `catalog`: {"name": "pdf-forms", "arguments": "..."}. An unknown name is an
// error naming the closest skill and the available ones.
core::ToolPtr make_skill_tool(std::shared_ptr<const SkillCatalog> catalog);

}  // namespace nib::extensions
