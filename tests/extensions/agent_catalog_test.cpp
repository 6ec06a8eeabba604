#include "extensions/agent_catalog.hpp"

#include <gtest/gtest.h>

#include "extensions/catalog_test_support.hpp"
#include "support/temp_dir.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::vector<std::string> names(const AgentCatalog& catalog) {
  std::vector<std::string> out;
  for (const AgentDefinition& agent : catalog.agents) out.push_back(agent.name);
  return out;
}

TEST(AgentCatalogTest, LoadsClaudeCodeAndNibFilesBesideTheBuiltins) {
  const AgentCatalog catalog =
      load_agent_definitions({kFixtures / "project", kFixtures / "none", kFixtures / "home"});
  EXPECT_TRUE(catalog.problems.empty()) << ::testing::PrintToString(texts(catalog.problems));
  EXPECT_EQ(names(catalog), (std::vector<std::string>{"code-reviewer", "db-reader", "explore",
                                                      "general", "planner"}));
  // The project's code-reviewer wins over the user's.
  const AgentDefinition* reviewer = catalog.find("code-reviewer");
  ASSERT_NE(reviewer, nullptr);
  EXPECT_EQ(reviewer->origin, Origin::kProjectClaude);
  EXPECT_EQ(reviewer->tools, (std::vector<std::string>{"read", "grep", "find", "bash"}));
  EXPECT_FALSE(reviewer->model);  // inherit
  EXPECT_TRUE(reviewer->system_prompt.starts_with("You are a senior code reviewer"));
  // Found in a sub-folder; a folded description; Claude Code's hooks are ignored.
  const AgentDefinition* reader = catalog.find("db-reader");
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->file, kFixtures / "project/.claude/agents/research/db-reader.md");
  EXPECT_EQ(reader->description, "Execute read-only database queries. Use when analysing data.\n");
  EXPECT_EQ(reader->model, "haiku");
  EXPECT_EQ(reader->disallowed_tools, (std::vector<std::string>{"write", "edit"}));
  const AgentDefinition* planner = catalog.find("planner");
  ASSERT_NE(planner, nullptr);
  EXPECT_EQ(planner->origin, Origin::kProjectNib);
  EXPECT_EQ(planner->thinking, core::ThinkingLevel::kHigh);
  EXPECT_EQ(planner->max_turns, 30);
  EXPECT_EQ(catalog.find("explore")->origin, Origin::kBuiltin);
  EXPECT_EQ(catalog.find("missing"), nullptr);
}

TEST(AgentCatalogTest, WithNoFilesOnlyTheBuiltinsAreThere) {
  const AgentCatalog catalog = load_agent_definitions({});
  EXPECT_EQ(names(catalog), (std::vector<std::string>{"explore", "general"}));
  EXPECT_TRUE(catalog.problems.empty());
}

TEST(AgentCatalogTest, PrecedenceProjectNibThenProjectClaudeThenUserNibThenUserClaude) {
  TempDir dir;
  const auto agent = [](std::string_view description) {
    return "---\nname: helper\ndescription: " + std::string(description) + "\n---\nbody\n";
  };
  dir.write("project/.nib/agents/helper.md", agent("project nib"));
  dir.write("project/.claude/agents/helper.md", agent("project claude"));
  dir.write("config/agents/helper.md", agent("user nib"));
  dir.write("home/.claude/agents/helper.md", agent("user claude"));
  const ExtensionRoots roots{dir.path() / "project", dir.path() / "config", dir.path() / "home"};
  EXPECT_EQ(load_agent_definitions(roots).find("helper")->description, "project nib");
  fs::remove(dir.path() / "project/.nib/agents/helper.md");
  EXPECT_EQ(load_agent_definitions(roots).find("helper")->description, "project claude");
  fs::remove(dir.path() / "project/.claude/agents/helper.md");
  EXPECT_EQ(load_agent_definitions(roots).find("helper")->description, "user nib");
  fs::remove(dir.path() / "config/agents/helper.md");
  EXPECT_EQ(load_agent_definitions(roots).find("helper")->description, "user claude");
  EXPECT_TRUE(load_agent_definitions(roots).problems.empty());
}

TEST(AgentCatalogTest, AFileReplacesABuiltinOfTheSameName) {
  TempDir dir;
  dir.write(".nib/agents/explore.md",
            "---\nname: explore\ndescription: Explores and runs tests.\ntools: Read, Grep, Bash\n"
            "---\nExplore.\n");
  const AgentCatalog catalog = load_agent_definitions({dir.path(), "", ""});
  const AgentDefinition* explore = catalog.find("explore");
  ASSERT_NE(explore, nullptr);
  EXPECT_EQ(explore->origin, Origin::kProjectNib);
  EXPECT_EQ(explore->tools, (std::vector<std::string>{"read", "grep", "bash"}));
  EXPECT_EQ(catalog.find("general")->origin, Origin::kBuiltin);
  EXPECT_TRUE(catalog.problems.empty());
}

TEST(AgentCatalogTest, BrokenDefinitionsAreReportedAndLeftOutNeverFatal) {
  TempDir dir;
  dir.write(".claude/agents/good.md", "---\nname: good\ndescription: Works.\n---\nGood.\n");
  dir.write(".claude/agents/no-front-matter.md", "You are an agent.\n");
  dir.write(".claude/agents/bad-yaml.md", "---\nname: bad\ndescription: x\n  y: z\n---\n");
  dir.write(".claude/agents/bad-name.md", "---\nname: Bad_Name\ndescription: d\n---\n");
  dir.write(".claude/agents/wrong-type.md",
            "---\nname: typed\ndescription: d\ntools:\n  read: yes\n---\n");
  dir.write(".claude/agents/twin.md", "---\nname: good\ndescription: Also good.\n---\n");
  dir.write(".claude/agents/notes.txt", "not a definition\n");
  const AgentCatalog catalog = load_agent_definitions({dir.path(), "", ""});
  EXPECT_EQ(names(catalog), (std::vector<std::string>{"explore", "general", "good"}));
  EXPECT_EQ(catalog.find("good")->description, "Works.");
  const fs::path folder = dir.path() / ".claude/agents";
  EXPECT_EQ(texts(catalog.problems),
            (std::vector<std::string>{
                (folder / "bad-name.md").string() +
                    ":2: name: \"Bad_Name\" is not a valid agent name; use 1 to 64 lowercase "
                    "letters, digits and hyphens, such as \"code-reviewer\"",
                (folder / "bad-yaml.md").string() +
                    ":4: front matter is not valid YAML: illegal map value",
                (folder / "no-front-matter.md").string() +
                    ":1: no front matter: an agent definition starts with a \"---\" line, name: "
                    "and description: lines, and another \"---\" line",
                (folder / "wrong-type.md").string() +
                    ":4: tools: must be a comma-separated value or a list, not a mapping (key: "
                    "value lines)",
                (folder / "twin.md").string() + ": \"good\" is also defined in " +
                    (folder / "good.md").string() + ", which is used; rename one of them",
            }));
}

TEST(AgentCatalogTest, CrlfAndAByteOrderMark) {
  TempDir dir;
  dir.write(".claude/agents/windows.md",
            "\xEF\xBB\xBF---\r\nname: windows\r\ndescription: Saved on Windows.\r\n"
            "tools: Read, Grep\r\n---\r\nLine one.\r\nLine two.\r\n");
  const AgentCatalog catalog = load_agent_definitions({dir.path(), "", ""});
  const AgentDefinition* agent = catalog.find("windows");
  ASSERT_NE(agent, nullptr);
  EXPECT_EQ(agent->description, "Saved on Windows.");
  EXPECT_EQ(agent->tools, (std::vector<std::string>{"read", "grep"}));
  EXPECT_EQ(agent->system_prompt, "Line one.\nLine two.");
}

TEST(AgentCatalogTest, TheListingIsSortedAndCutsLongDescriptions) {
  AgentDefinition zeta{.name = "zeta", .description = "Last.\nSecond line."};
  AgentDefinition alpha{.name = "alpha", .description = std::string(1100, 'x')};
  const std::string listing = agent_listing({zeta, alpha});
  EXPECT_EQ(listing, "- alpha: " + std::string(1024, 'x') +
                         "… [76 more bytes]\n- zeta: Last.\n  Second line.\n");
  EXPECT_EQ(agent_listing(builtin_agents()).find("- explore: "), 0u);
  EXPECT_EQ(agent_listing({}), "");
}

}  // namespace
}  // namespace nib::extensions
