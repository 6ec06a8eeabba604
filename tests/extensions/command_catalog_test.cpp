#include "extensions/command_catalog.hpp"

#include <gtest/gtest.h>

#include "extensions/catalog_test_support.hpp"
#include "support/temp_dir.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::vector<std::string> qualified_names(const CommandCatalog& catalog) {
  std::vector<std::string> out;
  for (const CommandDefinition& command : catalog.commands) out.push_back(command.qualified_name());
  return out;
}

TEST(CommandCatalogTest, LoadsCommandsInClaudeCodesFormat) {
  const CommandCatalog catalog =
      load_commands({kFixtures / "project", kFixtures / "none", kFixtures / "home"}, {});
  EXPECT_TRUE(catalog.problems.empty()) << ::testing::PrintToString(texts(catalog.problems));
  EXPECT_EQ(qualified_names(catalog),
            (std::vector<std::string>{"fix-issue", "frontend:component", "optimize"}));

  const CommandDefinition* fix = catalog.find("fix-issue").value();
  ASSERT_NE(fix, nullptr);
  EXPECT_EQ(fix->description, "Fix a GitHub issue");
  EXPECT_EQ(fix->argument_hint, "[issue-number] [priority]");
  EXPECT_EQ(fix->body, "Fix issue #$1 with priority $2 following our coding standards.");
  EXPECT_EQ(fix->label(), "(project)");
  EXPECT_FALSE(fix->model);

  // A sub-folder: /component as in Claude Code, labelled with its folder; /frontend:component
  // too. No front matter: the first line describes it.
  const CommandDefinition* component = catalog.find("component").value();
  ASSERT_NE(component, nullptr);
  EXPECT_EQ(catalog.find("frontend:component").value(), component);
  EXPECT_EQ(component->name, "component");
  EXPECT_EQ(component->namespace_path, "frontend");
  EXPECT_EQ(component->label(), "(project:frontend)");
  EXPECT_EQ(component->description,
            "Create a React component named $ARGUMENTS following @docs/components.md.");

  const CommandDefinition* optimize = catalog.find("optimize").value();
  ASSERT_NE(optimize, nullptr);
  EXPECT_EQ(optimize->label(), "(user)");
  EXPECT_EQ(optimize->origin, Origin::kUserClaude);

  const auto unknown = catalog.find("nope");
  EXPECT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error(), "unknown command /nope");
}

// Every key Claude Code's slash-command page documents loads; allowed-tools is kept as written,
// rule by rule, from a string or a list.
TEST(CommandCatalogTest, EveryDocumentedKeyLoadsAndAllowedToolsAreKeptAsWritten) {
  TempDir dir;
  dir.write(".claude/commands/commit.md",
            "---\n"
            "allowed-tools: Bash(git add:*), Bash(git status:*) Read\n"
            "argument-hint: [message]\n"
            "description: Create a git commit\n"
            "model: haiku\n"
            "disable-model-invocation: true\n"
            "---\n"
            "Commit: $ARGUMENTS\n");
  dir.write(".claude/commands/listed.md",
            "---\nallowed-tools:\n  - Bash(npm test:*)\n  - Edit\n---\nTest.\n");
  const CommandCatalog catalog = load_commands({dir.path(), {}, {}}, {});
  EXPECT_TRUE(catalog.problems.empty()) << ::testing::PrintToString(texts(catalog.problems));
  ASSERT_EQ(catalog.commands.size(), 2u);
  const CommandDefinition& commit = catalog.commands[0];
  EXPECT_EQ(commit.allowed_tools,
            (std::vector<std::string>{"Bash(git add:*)", "Bash(git status:*)", "Read"}));
  EXPECT_EQ(commit.allowed_tools_line, 2);
  EXPECT_EQ(commit.argument_hint, "[message]");
  EXPECT_EQ(commit.model, "haiku");
  EXPECT_EQ(catalog.commands[1].allowed_tools,
            (std::vector<std::string>{"Bash(npm test:*)", "Edit"}));
}

TEST(CommandCatalogTest, FrontMatterKeysAndTheFirstLineAsDescription) {
  TempDir dir;
  dir.write(".nib/commands/review.md",
            "---\nmodel: haiku\nargument-hint: <file>\n---\n\n# Review the file\n\nCarefully.\n");
  dir.write(".nib/commands/long.md", std::string(150, 'w') + "\n");
  dir.write(".nib/commands/inherit.md", "---\nmodel: inherit\ndescription: D.\n---\nBody.\n");
  dir.write(".nib/commands/commit.md", "---\nargument-hint: [message]\n---\nCommit: $1\n");
  const CommandCatalog catalog = load_commands({dir.path(), "", ""}, {});
  const CommandDefinition* review = catalog.find("review").value();
  ASSERT_NE(review, nullptr);
  EXPECT_EQ(review->model, "haiku");
  EXPECT_EQ(review->argument_hint, "<file>");
  EXPECT_EQ(review->description, "Review the file");
  EXPECT_EQ(review->body, "# Review the file\n\nCarefully.");
  EXPECT_EQ(catalog.find("long").value()->description, std::string(100, 'w') + "… [50 more bytes]");
  EXPECT_FALSE(catalog.find("inherit").value()->model);
  // YAML reads "[message]" as a list of one; the hint is shown as it was written.
  EXPECT_EQ(catalog.find("commit").value()->argument_hint, "[message]");
  EXPECT_TRUE(catalog.problems.empty()) << ::testing::PrintToString(texts(catalog.problems));
}

TEST(CommandCatalogTest, ProjectCommandsWinAndBareNamesPreferTheBetterFolder) {
  TempDir dir;
  dir.write("project/.nib/commands/test.md", "project nib\n");
  dir.write("project/.claude/commands/test.md", "project claude\n");
  dir.write("config/commands/test.md", "user nib\n");
  dir.write("home/.claude/commands/test.md", "user claude\n");
  dir.write("home/.claude/commands/git/commit.md", "user commit\n");
  dir.write("project/.claude/commands/tools/commit.md", "project commit\n");
  const ExtensionRoots roots{dir.path() / "project", dir.path() / "config", dir.path() / "home"};
  CommandCatalog catalog = load_commands(roots, {});
  EXPECT_TRUE(catalog.problems.empty());
  EXPECT_EQ(catalog.find("test").value()->body, "project nib");
  EXPECT_EQ(catalog.find("commit").value()->body, "project commit");
  EXPECT_EQ(catalog.find("git:commit").value()->body, "user commit");
  fs::remove(dir.path() / "project/.nib/commands/test.md");
  EXPECT_EQ(load_commands(roots, {}).find("test").value()->body, "project claude");
  fs::remove(dir.path() / "project/.claude/commands/test.md");
  EXPECT_EQ(load_commands(roots, {}).find("test").value()->body, "user nib");
  fs::remove(dir.path() / "config/commands/test.md");
  EXPECT_EQ(load_commands(roots, {}).find("test").value()->body, "user claude");
}

TEST(CommandCatalogTest, ABareNameInTwoSubFoldersOfOneFolderIsAmbiguous) {
  TempDir dir;
  dir.write(".claude/commands/frontend/test.md", "frontend\n");
  dir.write(".claude/commands/backend/test.md", "backend\n");
  CommandCatalog catalog = load_commands({dir.path(), "", ""}, {});
  const auto lookup = catalog.find("test");
  EXPECT_FALSE(lookup.ok());
  EXPECT_EQ(lookup.error(),
            "/test is in several folders: /backend:test, /frontend:test; type one of these");
  EXPECT_EQ(catalog.find("backend:test").value()->body, "backend");
  // A top-level file of the name is the exact match.
  dir.write(".claude/commands/test.md", "top\n");
  catalog = load_commands({dir.path(), "", ""}, {});
  EXPECT_EQ(catalog.find("test").value()->body, "top");
}

TEST(CommandCatalogTest, NestedFoldersJoinWithColons) {
  TempDir dir;
  dir.write(".claude/commands/frontend/react/hooks.md", "Hooks.\n");
  const CommandCatalog catalog = load_commands({dir.path(), "", ""}, {});
  const CommandDefinition* hooks = catalog.find("frontend:react:hooks").value();
  ASSERT_NE(hooks, nullptr);
  EXPECT_EQ(hooks->label(), "(project:frontend:react)");
  EXPECT_EQ(catalog.find("hooks").value(), hooks);
}

TEST(CommandCatalogTest, ProblemsLeaveCommandsOut) {
  TempDir dir;
  dir.write(".claude/commands/help.md", "Shadows the built-in.\n");
  dir.write(".claude/commands/tools/help.md", "Namespaced: fine.\n");
  dir.write(".claude/commands/fix issue.md", "Cannot be typed.\n");
  dir.write(".claude/commands/my folder/x.md", "Cannot be typed.\n");
  dir.write(".claude/commands/typed.md", "---\ndescription: [a, b]\n---\nBody.\n");
  dir.write(".claude/commands/unclosed.md", "---\ndescription: d\nBody.\n");
  dir.write(".claude/commands/crlf.md",
            "\xEF\xBB\xBF---\r\ndescription: Windows.\r\n---\r\nBody\r\n");
  const CommandCatalog catalog = load_commands({dir.path(), "", ""}, {"help", "model"});
  EXPECT_EQ(qualified_names(catalog), (std::vector<std::string>{"crlf", "tools:help"}));
  EXPECT_EQ(catalog.find("crlf").value()->description, "Windows.");
  EXPECT_EQ(catalog.find("crlf").value()->body, "Body");
  const fs::path folder = dir.path() / ".claude/commands";
  EXPECT_EQ(
      texts(catalog.problems),
      (std::vector<std::string>{
          (folder / "fix issue.md").string() +
              ": the file name \"fix issue\" cannot be typed as a command; use letters, "
              "digits, '-', '_' or '.'",
          (folder / "my folder/x.md").string() +
              ": the folder name \"my folder\" cannot be typed in a command; use letters, "
              "digits, '-', '_' or '.'",
          (folder / "typed.md").string() + ":2: description: must be a single value, not a list",
          (folder / "unclosed.md").string() +
              ":1: the front matter opened by \"---\" on line 1 has no closing \"---\" line",
          (folder / "help.md").string() +
              ": /help is a built-in command, which comes first; rename the file to use it "
              "as a command",
      }));
}

}  // namespace
}  // namespace nib::extensions
