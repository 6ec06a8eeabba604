#include "extensions/skill_catalog.hpp"

#include <gtest/gtest.h>

#include "extensions/catalog_test_support.hpp"
#include "support/temp_dir.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::string skill(std::string_view description) {
  return "---\ndescription: " + std::string(description) + "\n---\nDo it.\n";
}

TEST(SkillCatalogTest, LoadsSkillFoldersInClaudeCodesFormat) {
  const SkillCatalog catalog =
      load_skills({kFixtures / "project", kFixtures / "none", kFixtures / "home"});
  EXPECT_TRUE(catalog.problems.empty()) << ::testing::PrintToString(texts(catalog.problems));
  ASSERT_EQ(catalog.skills.size(), 2u);
  const SkillDefinition& commit = catalog.skills[0];
  EXPECT_EQ(commit.name, "commit");  // no name key: the folder's
  EXPECT_EQ(commit.origin, Origin::kUserClaude);
  EXPECT_FALSE(commit.model_invocable);
  EXPECT_TRUE(commit.user_invocable);
  const SkillDefinition& pdf = catalog.skills[1];
  EXPECT_EQ(pdf.name, "pdf-forms");
  EXPECT_EQ(pdf.origin, Origin::kProjectClaude);
  EXPECT_TRUE(pdf.description.starts_with("Fill in PDF forms"));
  EXPECT_TRUE(pdf.instructions.starts_with("# PDF forms\n\n1. List the fields"));
  EXPECT_EQ(pdf.file, kFixtures / "project/.claude/skills/pdf-forms/SKILL.md");
  EXPECT_TRUE(fs::exists(pdf.file.parent_path() / "forms.md"));  // its resource, beside it
  EXPECT_EQ(catalog.find("pdf-forms"), &catalog.skills[1]);
  EXPECT_EQ(catalog.find("nope"), nullptr);
}

// Every key Claude Code's skills page and the Agent Skills specification document loads.
TEST(SkillCatalogTest, EveryDocumentedKeyLoads) {
  TempDir dir;
  dir.write(".claude/skills/forms/SKILL.md",
            "---\n"
            "name: pdf-forms\n"
            "description: Fill in PDF forms\n"
            "argument-hint: [file]\n"
            "disable-model-invocation: false\n"
            "user-invocable: true\n"
            "allowed-tools: Read, Bash(python3:*)\n"
            "model: sonnet\n"
            "effort: low\n"
            "context: fork\n"
            "agent: general\n"
            "hooks:\n  PostToolUse:\n    - matcher: Edit\n      hooks:\n"
            "        - type: command\n          command: ./lint.sh\n"
            "paths: src/**/*.pdf\n"
            "when_to_use: When a PDF form needs filling\n"
            "license: Apache-2.0\n"
            "compatibility: Requires python3\n"
            "metadata:\n  author: team\n  version: \"1.0\"\n"
            "version: 1.0.0\n"
            "---\n"
            "Fill $ARGUMENTS.\n");
  const SkillCatalog catalog = load_skills({dir.path(), {}, {}});
  EXPECT_TRUE(catalog.problems.empty()) << ::testing::PrintToString(texts(catalog.problems));
  ASSERT_EQ(catalog.skills.size(), 1u);
  EXPECT_EQ(catalog.skills[0].name, "pdf-forms");
  EXPECT_EQ(catalog.skills[0].argument_hint, "[file]");
  EXPECT_EQ(catalog.skills[0].model, "sonnet");
}

TEST(SkillCatalogTest, TheUsersSkillsWinOverTheProjects) {
  TempDir dir;
  dir.write("project/.nib/skills/deploy/SKILL.md", skill("project nib"));
  dir.write("project/.claude/skills/deploy/SKILL.md", skill("project claude"));
  dir.write("config/skills/deploy/SKILL.md", skill("user nib"));
  dir.write("home/.claude/skills/deploy/SKILL.md", skill("user claude"));
  const ExtensionRoots roots{dir.path() / "project", dir.path() / "config", dir.path() / "home"};
  EXPECT_EQ(load_skills(roots).find("deploy")->description, "user nib");
  fs::remove_all(dir.path() / "config/skills/deploy");
  EXPECT_EQ(load_skills(roots).find("deploy")->description, "user claude");
  fs::remove_all(dir.path() / "home/.claude/skills/deploy");
  EXPECT_EQ(load_skills(roots).find("deploy")->description, "project nib");
  fs::remove_all(dir.path() / "project/.nib/skills/deploy");
  EXPECT_EQ(load_skills(roots).find("deploy")->description, "project claude");
  EXPECT_TRUE(load_skills(roots).problems.empty());
}

TEST(SkillCatalogTest, BrokenSkillsAreReportedAndLeftOut) {
  TempDir dir;
  dir.write(".claude/skills/good/SKILL.md", "---\nname: good\ndescription: Works.\n---\nDo.\n");
  dir.write(".claude/skills/bare/SKILL.md", "Instructions without front matter.\n");
  dir.write(".claude/skills/empty/SKILL.md", "---\nname: empty\n---\n\n");
  dir.write(".claude/skills/Bad_Folder/SKILL.md", "---\ndescription: d\n---\n");
  dir.write(".claude/skills/flags/SKILL.md",
            "---\ndescription: d\ndisable-model-invocation: sometimes\n---\n");
  dir.write(".claude/skills/broken-yaml/SKILL.md", "---\ndescription: [a\n---\n");
  dir.write(".claude/skills/no-skill-file/README.md", "not a skill\n");
  dir.write(".claude/skills/loose.md", "not a skill folder\n");
  const SkillCatalog catalog = load_skills({dir.path(), "", ""});
  ASSERT_EQ(catalog.skills.size(), 1u);
  EXPECT_EQ(catalog.skills[0].name, "good");
  const fs::path folder = dir.path() / ".claude/skills";
  EXPECT_EQ(texts(catalog.problems),
            (std::vector<std::string>{
                (folder / "Bad_Folder/SKILL.md").string() +
                    ": the folder name \"Bad_Folder\" is not a valid skill name (a skill "
                    "without a valid name: line is named after its folder); use 1 to 64 "
                    "lowercase letters, digits and hyphens, such as \"code-reviewer\"",
                (folder / "bare/SKILL.md").string() +
                    ":1: no front matter: SKILL.md starts with a \"---\" line, a description: "
                    "line, and another \"---\" line",
                (folder / "broken-yaml/SKILL.md").string() +
                    ":3: front matter is not valid YAML: end of sequence flow not found",
                (folder / "empty/SKILL.md").string() +
                    ":1: description: missing or empty, and no instructions follow; say what the "
                    "skill does and when to use it",
                (folder / "flags/SKILL.md").string() +
                    ":3: disable-model-invocation: must be true or false, got \"sometimes\"",
            }));
}

TEST(SkillCatalogTest, WhatClaudeCodeToleratesIsKeptWithANote) {
  TempDir dir;
  dir.write(".claude/skills/other-name/SKILL.md",
            "---\nname: Other Name\ndescription: d\n---\nDo.\n");
  dir.write(".claude/skills/silent/SKILL.md", "---\nname: silent\n---\n\n# Tidy the imports\n");
  const SkillCatalog catalog = load_skills({dir.path(), "", ""});
  ASSERT_EQ(catalog.skills.size(), 2u);
  EXPECT_EQ(catalog.skills[0].name, "other-name");  // the folder's name
  EXPECT_EQ(catalog.skills[1].description, "Tidy the imports");
  const fs::path folder = dir.path() / ".claude/skills";
  EXPECT_EQ(texts(catalog.problems),
            (std::vector<std::string>{
                (folder / "other-name/SKILL.md").string() +
                    ":2: name: \"Other Name\" is not a valid skill name, so the folder's name "
                    "(/other-name) is used; use 1 to 64 lowercase letters, digits and hyphens, "
                    "such as \"code-reviewer\"",
                (folder / "silent/SKILL.md").string() +
                    ":1: description: missing or empty, so the first line of the instructions "
                    "stands in; the model picks skills by their descriptions, so say what the "
                    "skill does and when to use it",
            }));
}

// As in Claude Code, a skill is named by its `name`, whatever its folder is called.
TEST(SkillCatalogTest, AValidNameNamesTheSkillWhateverTheFolder) {
  TempDir dir;
  dir.write(".claude/skills/pdf-forms-v2/SKILL.md",
            "---\nname: pdf-forms\ndescription: d\n---\nDo.\n");
  dir.write(".claude/skills/Release_Notes/SKILL.md",
            "---\nname: release-notes\ndescription: d\n---\nDo.\n");
  dir.write(".claude/skills/tidy/SKILL.md", "---\nname:\ndescription: d\n---\nDo.\n");
  const SkillCatalog catalog = load_skills({dir.path(), "", ""});
  ASSERT_EQ(catalog.skills.size(), 3u);
  EXPECT_EQ(catalog.skills[0].name, "pdf-forms");
  EXPECT_EQ(catalog.skills[0].file, dir.path() / ".claude/skills/pdf-forms-v2/SKILL.md");
  EXPECT_EQ(catalog.skills[1].name, "release-notes");  // the folder's name need not be valid
  EXPECT_EQ(catalog.skills[2].name, "tidy");           // an empty name: the folder's
  EXPECT_TRUE(catalog.problems.empty()) << ::testing::PrintToString(texts(catalog.problems));
}

TEST(SkillCatalogTest, ArgumentHintAndModel) {
  TempDir dir;
  dir.write(
      ".claude/skills/fix/SKILL.md",
      "---\ndescription: Fix an issue.\nargument-hint: [issue]\nmodel: haiku\n---\nFix $0.\n");
  dir.write(".claude/skills/plain/SKILL.md",
            "---\ndescription: Plain.\nargument-hint: <file> [mode]\nmodel: inherit\n---\nDo.\n");
  const SkillCatalog catalog = load_skills({dir.path(), "", ""});
  ASSERT_EQ(catalog.skills.size(), 2u);
  EXPECT_EQ(catalog.find("fix")->argument_hint, "[issue]");  // YAML's list of one, as written
  EXPECT_EQ(catalog.find("fix")->model, "haiku");
  EXPECT_EQ(catalog.find("plain")->argument_hint, "<file> [mode]");
  EXPECT_FALSE(catalog.find("plain")->model);
  EXPECT_TRUE(catalog.problems.empty()) << ::testing::PrintToString(texts(catalog.problems));
}

TEST(SkillCatalogTest, ASymlinkedSkillFolderIsFollowed) {
  TempDir dir;
  dir.write("elsewhere/shared/SKILL.md", skill("Shared."));
  fs::create_directories(dir.path() / "home/.claude/skills");
  fs::create_directory_symlink(dir.path() / "elsewhere/shared",
                               dir.path() / "home/.claude/skills/shared");
  const SkillCatalog catalog = load_skills({"", "", dir.path() / "home"});
  ASSERT_NE(catalog.find("shared"), nullptr);
  EXPECT_EQ(catalog.find("shared")->description, "Shared.");
}

TEST(SkillCatalogTest, TheListingNamesTheModelsSkillsAndTheirDescriptionsOnly) {
  SkillDefinition manual{.name = "manual", .description = "User only.", .model_invocable = false};
  SkillDefinition pdf{.name = "pdf", .description = "PDF work.", .file = "/s/pdf/SKILL.md"};
  SkillDefinition csv{.name = "csv", .description = "CSV work.", .file = "/s/csv/SKILL.md"};
  EXPECT_EQ(skill_listing({pdf, manual, csv}), "- csv: CSV work.\n- pdf: PDF work.\n");
  EXPECT_EQ(skill_listing({manual}), "");
}

}  // namespace
}  // namespace nib::extensions
