#include "extensions/skill_catalog.hpp"

#include <algorithm>

#include "extensions/front_matter_fields.hpp"
#include "extensions/listing.hpp"

namespace nib::extensions {
namespace {

constexpr const char* kSkillFileName = "SKILL.md";

// The skill's name: its `name` when that is a valid name, as Claude Code names skills (the
// folder "pdf-forms-v2" may hold the skill pdf-forms), else its folder's, which must then be
// valid. An invalid `name` is noted, not fatal: the folder's name still serves.
std::string read_skill_name(FieldReader& reader, const std::filesystem::path& file,
                            std::vector<Problem>& notes) {
  const std::optional<std::string> name = reader.text("name");
  if (name && is_valid_name(*name)) return *name;
  std::string folder = file.parent_path().filename().string();
  if (name) {
    notes.push_back({file, reader.line("name"),
                     "name: \"" + *name + "\" is not a valid skill name, so the folder's name (/" +
                         folder + ") is used; " + std::string(kNameRule)});
  }
  if (!is_valid_name(folder)) {
    reader.problems().push_back({file, 0,
                                 "the folder name \"" + folder +
                                     "\" is not a valid skill name (a skill without a valid "
                                     "name: line is named after its folder); " +
                                     std::string(kNameRule)});
  }
  return folder;
}

}  // namespace

SkillParse parse_skill(const MarkdownDocument& document, const std::filesystem::path& file,
                       Origin origin) {
  const auto read = [&](FieldReader& reader, SkillDefinition& skill, std::vector<Problem>& notes) {
    skill.name = read_skill_name(reader, file, notes);
    skill.instructions = trimmed_body(document.body);
    skill.description = reader.text("description").value_or("");
    if (skill.description.empty()) {
      skill.description = default_description(skill.instructions);
      if (skill.description.empty()) {
        reader.problems().push_back({file, reader.line("description"),
                                     "description: missing or empty, and no instructions follow; "
                                     "say what the skill does and when to use it"});
      } else {
        notes.push_back({file, reader.line("description"),
                         "description: missing or empty, so the first line of the "
                         "instructions stands in; the model picks skills by their "
                         "descriptions, so say what the skill does and when to use it"});
      }
    }
    skill.argument_hint = reader.display_text("argument-hint").value_or("");
    skill.model = read_model(reader);
    skill.model_invocable = !reader.flag("disable-model-invocation").value_or(false);
    skill.user_invocable = reader.flag("user-invocable").value_or(true);
  };
  return parse_definition<SkillDefinition>(
      document, file, origin,
      "SKILL.md starts with a \"---\" line, a description: line, and another \"---\" line", read);
}

const SkillDefinition* SkillCatalog::find(std::string_view name) const {
  return find_by_name(skills, name);
}

SkillCatalog load_skills(const ExtensionRoots& roots) {
  SkillCatalog catalog;
  std::vector<SkillDefinition> found;
  for (const DefinitionFolder& folder :
       definition_folders(roots, "skills", ScopeOrder::kUserFirst)) {
    std::error_code error;
    // A plugin's skills path may be one skill's folder (Claude Code's "skills": ["./"]).
    const bool one_skill =
        folder.plugin && std::filesystem::exists(folder.path / kSkillFileName, error);
    for (const auto& skill_folder : one_skill ? std::vector<std::filesystem::path>{folder.path}
                                              : subfolders(folder.path, catalog.problems)) {
      const std::filesystem::path file = skill_folder / kSkillFileName;
      if (!std::filesystem::exists(file, error)) continue;
      read_definition(file, folder.origin,
                      parse_in_folder(folder, parse_skill, &SkillDefinition::instructions), found,
                      catalog.problems);
    }
  }
  catalog.skills = keep_first_of_each_name(
      std::move(found),
      [](const SkillDefinition& skill) -> const std::string& { return skill.name; },
      catalog.problems);
  return catalog;
}

std::string skill_listing(const std::vector<SkillDefinition>& skills) {
  std::vector<const SkillDefinition*> listed;
  for (const SkillDefinition& skill : skills) {
    if (skill.model_invocable) listed.push_back(&skill);
  }
  std::sort(listed.begin(), listed.end(),
            [](const SkillDefinition* a, const SkillDefinition* b) { return a->name < b->name; });
  std::string listing;
  for (const SkillDefinition* skill : listed) {
    listing += listing_entry(skill->name, skill->description);
  }
  return listing;
}

}  // namespace nib::extensions
