#include "extensions/skill_tool.hpp"

#include <filesystem>
#include <vector>

#include "extensions/command_expansion.hpp"
#include "extensions/limits.hpp"
#include "util/edit_distance.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Typing mistakes a skill name may have and still be suggested.
constexpr std::size_t kSuggestionDistance = 3;

// The files of the skill's folder besides SKILL.md, relative and sorted; hidden entries skipped.
std::string resource_listing(const fs::path& folder) {
  std::vector<std::string> files;
  std::size_t total = 0;
  std::error_code error;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with('.')) {
      if (it->is_directory(error)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(error) || it->path() == folder / "SKILL.md") continue;
    if (++total <= kMaxListedSkillResources) {
      files.push_back(it->path().lexically_relative(folder).string());
    }
  }
  std::sort(files.begin(), files.end());
  std::string text;
  for (const std::string& file : files) text += "- " + file + "\n";
  if (total > files.size()) {
    text += "(and " + std::to_string(total - files.size()) + " more files; use ls or find)\n";
  }
  return text;
}

std::vector<std::string> loadable_names(const SkillCatalog& catalog) {
  std::vector<std::string> names;
  for (const SkillDefinition& skill : catalog.skills) {
    if (skill.model_invocable) names.push_back(skill.name);
  }
  return names;
}

class SkillTool final : public core::Tool {
 public:
  explicit SkillTool(std::shared_ptr<const SkillCatalog> catalog)
      : Tool({std::string(kSkillToolName),
              "Load a skill: instructions for a kind of task, from the list under \"Skills\" in "
              "the system prompt. Load the one whose description matches the task before you "
              "start it, then follow its instructions; the result names the skill's folder "
              "and the files in it, to read when the instructions refer to them.",
              {{"type", "object"},
               {"properties",
                {{"name", {{"type", "string"}, {"description", "The skill's name, as listed."}}},
                 {"arguments",
                  {{"type", "string"},
                   {"description", "What to apply the skill to, if anything (its $ARGUMENTS)."}}}}},
               {"required", {"name"}}},
              /*concurrency_safe=*/true,
              core::AccessKind::kNone}),
        catalog_(std::move(catalog)) {}

  core::ToolOutput execute(const json& args, std::stop_token /*stop*/,
                           const core::ToolContext& /*context*/) override {
    const std::string name = args.value("name", "");
    const SkillDefinition* skill = catalog_->find(name);
    if (skill == nullptr || !skill->model_invocable) {
      const std::vector<std::string> names = loadable_names(*catalog_);
      std::string message = skill != nullptr
                                ? "The skill \"" + name + "\" is for the user to start (/" + name +
                                      "); it cannot be loaded by the model."
                                : "There is no skill \"" + name + "\".";
      const std::string close = util::closest_name(name, names, kSuggestionDistance);
      if (skill == nullptr && !close.empty()) message += " Did you mean \"" + close + "\"?";
      std::string available;
      for (const std::string& known : names) available += (available.empty() ? "" : ", ") + known;
      message += available.empty() ? " No skills can be loaded." : " Skills: " + available + ".";
      return core::ToolOutput::error(std::move(message));
    }
    return {loaded_skill_text(*skill, args.value("arguments", ""))};
  }

  std::string describe_call(const json& args) const override {
    return args.is_object() ? args.value("name", "") : "";
  }
  std::optional<std::string> describe_result(const json& args,
                                             const core::ToolResult& result) const override {
    if (result.is_error || !args.is_object()) return std::nullopt;
    return "Loaded the skill " + args.value("name", "");
  }

 private:
  std::shared_ptr<const SkillCatalog> catalog_;
};

}  // namespace

std::string loaded_skill_text(const SkillDefinition& skill, std::string_view arguments) {
  const fs::path folder = skill.file.parent_path();
  std::string text = "<skill name=\"" + skill.name + "\" folder=\"" + folder.string() + "\">\n" +
                     expand_skill(skill, arguments) + "\n</skill>\n";
  const std::string resources = resource_listing(folder);
  if (!resources.empty()) {
    text +=
        "Files in the skill's folder (paths relative to " + folder.string() + "):\n" + resources;
  }
  return text;
}

std::string skills_prompt_section(const SkillCatalog& catalog) {
  const std::string listing = skill_listing(catalog.skills);
  if (listing.empty()) return {};
  return "\nSkills (instructions for particular kinds of task; when a task matches a skill's "
         "description, load it with the " +
         std::string(kSkillToolName) + " tool before starting):\n" + listing;
}

core::ToolPtr make_skill_tool(std::shared_ptr<const SkillCatalog> catalog) {
  return std::make_shared<SkillTool>(std::move(catalog));
}

}  // namespace nib::extensions
