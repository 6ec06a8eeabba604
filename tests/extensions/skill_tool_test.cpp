// Tests of the skill tool: loading a skill's instructions with its arguments, folder and files;
// the names it refuses, with a suggestion; the system prompt's section.

#include "extensions/skill_tool.hpp"

#include <gtest/gtest.h>

#include "extensions/limits.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"

namespace nib::extensions {
namespace {

using nlohmann::json;
using testing::contains;

class SkillToolTest : public ::testing::Test {
 protected:
  SkillDefinition skill(const std::string& name, bool model_invocable = true) {
    return {.name = name,
            .description = "Does " + name + ".",
            .instructions = "Run ${CLAUDE_SKILL_DIR}/go.sh on $ARGUMENTS.",
            .model_invocable = model_invocable,
            .file = dir_.path() / name / "SKILL.md"};
  }
  core::ToolOutput call(const SkillCatalog& catalog, const json& args) {
    return make_skill_tool(std::make_shared<const SkillCatalog>(catalog))
        ->execute(args, {}, {"call-1", dir_.path()});
  }

  testing::TempDir dir_;
};

TEST_F(SkillToolTest, LoadsTheInstructionsWithArgumentsFolderAndFiles) {
  dir_.write("deploy/SKILL.md", "x");
  dir_.write("deploy/go.sh", "echo\n");
  dir_.write("deploy/docs/notes.md", "n\n");
  dir_.write("deploy/.git/config", "hidden\n");
  SkillCatalog catalog;
  catalog.skills = {skill("deploy")};
  const auto result = call(catalog, {{"name", "deploy"}, {"arguments", "staging"}});
  ASSERT_FALSE(result.is_error) << result.output;
  const std::string folder = (dir_.path() / "deploy").string();
  EXPECT_EQ(result.output, "<skill name=\"deploy\" folder=\"" + folder + "\">\nRun " + folder +
                               "/go.sh on staging.\n</skill>\nFiles in the skill's folder (paths "
                               "relative to " +
                               folder + "):\n- docs/notes.md\n- go.sh\n");
}

TEST_F(SkillToolTest, AFolderWithManyFilesIsSummarisedByCount) {
  dir_.write("big/SKILL.md", "x");
  for (std::size_t i = 0; i < kMaxListedSkillResources + 5; ++i) {
    dir_.write("big/data/" + std::to_string(1000 + i) + ".csv", "1\n");
  }
  SkillCatalog catalog;
  catalog.skills = {skill("big")};
  const auto result = call(catalog, {{"name", "big"}});
  EXPECT_TRUE(contains(result.output, "(and 5 more files; use ls or find)")) << result.output;
}

TEST_F(SkillToolTest, AnUnknownOrUserOnlySkillIsRefusedWithWhatThereIs) {
  SkillCatalog catalog;
  catalog.skills = {skill("deploy"), skill("manual", false)};
  const auto unknown = call(catalog, {{"name", "deplyo"}});
  ASSERT_TRUE(unknown.is_error);
  EXPECT_EQ(unknown.output,
            "There is no skill \"deplyo\". Did you mean \"deploy\"? Skills: deploy.");
  const auto manual = call(catalog, {{"name", "manual"}});
  ASSERT_TRUE(manual.is_error);
  EXPECT_TRUE(contains(manual.output, "is for the user to start (/manual)")) << manual.output;
}

TEST_F(SkillToolTest, ThePromptSectionListsWhatTheModelMayLoad) {
  SkillCatalog catalog;
  EXPECT_EQ(skills_prompt_section(catalog), "");
  catalog.skills = {skill("deploy"), skill("manual", false)};
  const std::string section = skills_prompt_section(catalog);
  EXPECT_TRUE(contains(section,
                       "load it with the skill tool before starting):\n- deploy: Does "
                       "deploy.\n"))
      << section;
  EXPECT_FALSE(contains(section, "manual")) << section;
}

}  // namespace
}  // namespace nib::extensions
