// Tests of Claude Code plugins: finding the enabled ones (a local marketplace named in
// extraKnownMarketplaces, an install recorded in installed_plugins.json), reading their parts,
// reporting the broken ones, and the commands, agents and skills loaders naming their parts
// after the plugin. Every fixture is written in Claude Code's documented formats.

#include "extensions/plugin_catalog.hpp"

#include <gtest/gtest.h>

#include "extensions/agent_catalog.hpp"
#include "extensions/catalog_test_support.hpp"
#include "extensions/command_catalog.hpp"
#include "extensions/skill_catalog.hpp"
#include "support/temp_dir.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::TempDir;

// A home directory, a project and a marketplace folder "team" holding my-plugin, which has one
// part of each kind, and plugins that cannot load. The user's settings name the marketplace
// and enable plugins; the project's settings enable and disable more.
class PluginCatalogTest : public ::testing::Test {
 protected:
  PluginCatalogTest() {
    dir_.write(
        "market/.claude-plugin/marketplace.json",
        json{{"name", "team"},
             {"owner", {{"name", "Tools Team"}}},
             {"plugins",
              json::array({
                  {{"name", "my-plugin"}, {"source", "./plugins/my-plugin"}, {"version", "0.9.0"}},
                  {{"name", "disabled-plugin"}, {"source", "./plugins/disabled-plugin"}},
                  {{"name", "broken-plugin"}, {"source", "./plugins/broken-plugin"}},
                  {{"name", "escaping-plugin"}, {"source", "./plugins/escaping-plugin"}},
                  {{"name", "remote-plugin"},
                   {"source", {{"source", "github"}, {"repo", "acme/remote-plugin"}}}},
                  {{"name", "entry-plugin"},
                   {"source", "./plugins/entry-plugin"},
                   {"strict", false},
                   {"description", "Defined by its entry"},
                   {"commands", json::array({"./cmds/"})}},
              })}}
            .dump(2));
    write_plugin("my-plugin", json{{"name", "my-plugin"},
                                   {"version", "1.2.0"},
                                   {"description", "Greets and reviews"},
                                   {"author", {{"name", "Tools Team"}}}});
    dir_.write(plugin_dir("my-plugin") / "commands/hello.md",
               "---\ndescription: Say hello\n---\nGreet $ARGUMENTS with "
               "${CLAUDE_PLUGIN_ROOT}/greeting.txt\n");
    dir_.write(plugin_dir("my-plugin") / "agents/reviewer.md",
               "---\nname: reviewer\ndescription: Reviews a change\ntools: Read, Grep\n---\n"
               "You review changes.\n");
    dir_.write(plugin_dir("my-plugin") / "skills/pdf/SKILL.md",
               "---\nname: pdf\ndescription: Fill PDF forms\n---\nRun "
               "${CLAUDE_PLUGIN_ROOT}/scripts/fill.py.\n");
    dir_.write(plugin_dir("my-plugin") / "hooks/hooks.json",
               json{{"description", "Formats what was written"},
                    {"hooks",
                     {{"PostToolUse",
                       json::array({{{"matcher", "Write|Edit"},
                                     {"hooks", json::array({{{"type", "command"},
                                                             {"command",
                                                              "${CLAUDE_PLUGIN_ROOT}/scripts/"
                                                              "format.sh"}}})}}})}}}}
                   .dump(2));
    dir_.write(plugin_dir("my-plugin") / ".mcp.json",
               json{{"mcpServers",
                     {{"db",
                       {{"command", "${CLAUDE_PLUGIN_ROOT}/servers/db"},
                        {"args", json::array({"--config", "${CLAUDE_PLUGIN_ROOT}/config.json"})},
                        {"env", {{"DB_PATH", "${CLAUDE_PLUGIN_ROOT}/data"}}}}}}}}
                   .dump(2));
    write_plugin("disabled-plugin", json{{"name", "disabled-plugin"}});
    dir_.write(plugin_dir("broken-plugin") / ".claude-plugin/plugin.json",
               "{\"name\": \"broken-plugin\",}");
    write_plugin("escaping-plugin", json{{"name", "escaping-plugin"},
                                         {"commands", json::array({"../../../secret.md"})}});
    dir_.write("secret.md", "Not the plugin's.\n");
    dir_.write(plugin_dir("entry-plugin") / "cmds/ship.md", "Ship it.\n");

    user_settings_ = {
        {"enabledPlugins", {{"my-plugin@team", true}, {"disabled-plugin@team", true}}},
        {"extraKnownMarketplaces",
         {{"team",
           {{"source", {{"source", "directory"}, {"path", (dir_.path() / "market").string()}}}}}}}};
    project_settings_ = {{"enabledPlugins",
                          {{"disabled-plugin@team", false},
                           {"broken-plugin@team", true},
                           {"escaping-plugin@team", true},
                           {"remote-plugin@team", true},
                           {"entry-plugin@team", true}}}};
  }

  fs::path home() const { return dir_.path() / "home"; }
  fs::path project() const { return dir_.path() / "project"; }
  fs::path plugin_dir(const std::string& name) const {
    return dir_.path() / "market/plugins" / name;
  }
  fs::path user_settings_file() const { return home() / ".claude/settings.json"; }
  fs::path project_settings_file() const { return project() / ".claude/settings.json"; }

  void write_plugin(const std::string& name, const json& manifest) {
    dir_.write(plugin_dir(name) / ".claude-plugin/plugin.json", manifest.dump(2));
  }

  PluginCatalog load() const {
    return load_plugins(home(), project(),
                        {{user_settings_file(), &user_settings_, true},
                         {project_settings_file(), &project_settings_}});
  }

  // The problem whose message starts with `id`, or an empty one.
  static Problem problem_about(const PluginCatalog& catalog, const std::string& id) {
    for (const Problem& problem : catalog.problems) {
      if (problem.message.starts_with(id + ": ")) return problem;
    }
    return {};
  }

  TempDir dir_;
  json user_settings_;
  json project_settings_;
};

std::vector<std::string> plugin_names(const PluginCatalog& catalog) {
  std::vector<std::string> out;
  for (const Plugin& plugin : catalog.plugins) out.push_back(plugin.name);
  return out;
}

TEST_F(PluginCatalogTest, LoadsAPluginWithEveryKindOfPartFromALocalMarketplace) {
  const PluginCatalog catalog = load();
  ASSERT_EQ(plugin_names(catalog), (std::vector<std::string>{"entry-plugin", "my-plugin"}));
  const Plugin& plugin = catalog.plugins[1];
  const fs::path root = plugin_dir("my-plugin");
  EXPECT_EQ(plugin.id(), "my-plugin@team");
  EXPECT_FALSE(plugin.from_project) << "the user enabled it from the user's marketplace";
  EXPECT_TRUE(catalog.plugins[0].from_project) << "the project's settings enabled entry-plugin";
  EXPECT_EQ(plugin.root, root);
  EXPECT_EQ(plugin.version, "1.2.0");  // plugin.json's wins over the marketplace entry's
  EXPECT_EQ(plugin.description, "Greets and reviews");
  EXPECT_EQ(plugin.commands, (std::vector<fs::path>{root / "commands"}));
  EXPECT_EQ(plugin.agents, (std::vector<fs::path>{root / "agents"}));
  EXPECT_EQ(plugin.skills, (std::vector<fs::path>{root / "skills"}));

  // ${CLAUDE_PLUGIN_ROOT} is the plugin's folder in its hooks and MCP servers.
  ASSERT_EQ(plugin.hooks.size(), 1u);
  EXPECT_EQ(plugin.hooks[0].file, root / "hooks/hooks.json");
  EXPECT_EQ(plugin.hooks[0].value["PostToolUse"][0]["matcher"], "Write|Edit");
  EXPECT_EQ(plugin.hooks[0].value["PostToolUse"][0]["hooks"][0]["command"],
            (root / "scripts/format.sh").string());
  ASSERT_EQ(plugin.mcp_servers.size(), 1u);
  EXPECT_EQ(plugin.mcp_servers[0].file, root / ".mcp.json");
  const json& db = plugin.mcp_servers[0].value["db"];
  EXPECT_EQ(db["command"], (root / "servers/db").string());
  EXPECT_EQ(db["args"], json::array({"--config", (root / "config.json").string()}));
  EXPECT_EQ(db["env"]["DB_PATH"], (root / "data").string());
}

TEST_F(PluginCatalogTest, ADisabledPluginIsNotLoadedAndNotReported) {
  // The user's file enables it, the project's (more specific) disables it.
  const PluginCatalog catalog = load();
  for (const Plugin& plugin : catalog.plugins) EXPECT_NE(plugin.name, "disabled-plugin");
  EXPECT_TRUE(problem_about(catalog, "disabled-plugin@team").message.empty());
  // The local settings file overrides the project's.
  const json local = {{"enabledPlugins", {{"disabled-plugin@team", true}}}};
  const PluginCatalog enabled = load_plugins(home(), project(),
                                             {{user_settings_file(), &user_settings_, true},
                                              {project_settings_file(), &project_settings_},
                                              {project() / ".claude/settings.local.json", &local}});
  EXPECT_EQ(plugin_names(enabled),
            (std::vector<std::string>{"disabled-plugin", "entry-plugin", "my-plugin"}));
}

TEST_F(PluginCatalogTest, ABrokenPluginIsReportedWithItsFileWhileTheOthersLoad) {
  const PluginCatalog catalog = load();
  const Problem broken = problem_about(catalog, "broken-plugin@team");
  EXPECT_EQ(broken.file, plugin_dir("broken-plugin") / ".claude-plugin/plugin.json");
  EXPECT_NE(broken.message.find("not valid JSON: parse error"), std::string::npos)
      << broken.message;
  EXPECT_EQ(plugin_names(catalog), (std::vector<std::string>{"entry-plugin", "my-plugin"}));
}

TEST_F(PluginCatalogTest, APathLeadingOutOfThePluginIsRejected) {
  const Problem escaping = problem_about(load(), "escaping-plugin@team");
  EXPECT_EQ(escaping.file, plugin_dir("escaping-plugin") / ".claude-plugin/plugin.json");
  EXPECT_NE(escaping.message.find("commands: \"../../../secret.md\" leads out of"),
            std::string::npos)
      << escaping.message;
}

TEST_F(PluginCatalogTest, ARemotePluginThatIsNotInstalledIsReportedNotFetched) {
  const Problem remote = problem_about(load(), "remote-plugin@team");
  EXPECT_EQ(remote.file, project_settings_file());
  EXPECT_EQ(remote.message,
            "remote-plugin@team: not installed; nib does not download plugins — install it with "
            "Claude Code or add a local marketplace");
}

TEST_F(PluginCatalogTest, ANonStrictEntryIsThePluginsWholeDefinition) {
  const PluginCatalog catalog = load();
  const Plugin& plugin = catalog.plugins[0];
  ASSERT_EQ(plugin.name, "entry-plugin");  // no plugin.json: named as enabled
  EXPECT_EQ(plugin.description, "Defined by its entry");
  EXPECT_EQ(plugin.commands, (std::vector<fs::path>{plugin_dir("entry-plugin") / "cmds"}));
  // A manifest that lists parts too is a conflict.
  write_plugin("entry-plugin", json{{"name", "entry-plugin"}, {"agents", "./agents/"}});
  const Problem conflict = problem_about(load(), "entry-plugin@team");
  EXPECT_EQ(conflict.file, plugin_dir("entry-plugin") / ".claude-plugin/plugin.json");
  EXPECT_NE(conflict.message.find("\"strict\": false"), std::string::npos) << conflict.message;
}

TEST_F(PluginCatalogTest, ListedCommandsReplaceTheFolderAndListedSkillsAddToIt) {
  write_plugin("my-plugin", json{{"name", "my-plugin"},
                                 {"commands", json::array({"./extra/deploy.md"})},
                                 {"skills", "./more-skills/"}});
  dir_.write(plugin_dir("my-plugin") / "extra/deploy.md", "Deploy.\n");
  dir_.write(plugin_dir("my-plugin") / "more-skills/sign/SKILL.md",
             "---\ndescription: Sign\n---\nSign.\n");
  const PluginCatalog catalog = load();
  const Plugin& plugin = catalog.plugins[1];
  const fs::path root = plugin_dir("my-plugin");
  EXPECT_EQ(plugin.commands, (std::vector<fs::path>{root / "extra/deploy.md"}));
  EXPECT_EQ(plugin.skills, (std::vector<fs::path>{root / "skills", root / "more-skills"}));
  const ExtensionRoots roots{project(), dir_.path() / "config", home(), catalog.plugins};
  const CommandCatalog commands = load_commands(roots, {});
  EXPECT_TRUE(commands.find("my-plugin:deploy").ok());
  EXPECT_FALSE(commands.find("my-plugin:hello").ok());  // commands/ is not read
  const SkillCatalog skills = load_skills(roots);
  EXPECT_NE(skills.find("my-plugin:pdf"), nullptr);
  EXPECT_NE(skills.find("my-plugin:sign"), nullptr);
  // A listed path that is not there breaks the plugin.
  write_plugin("my-plugin", json{{"name", "my-plugin"}, {"agents", json::array({"./nope.md"})}});
  const PluginCatalog broken = load();
  EXPECT_EQ(plugin_names(broken), (std::vector<std::string>{"entry-plugin"}));
  EXPECT_EQ(problem_about(broken, "my-plugin@team").message,
            "my-plugin@team: agents: \"./nope.md\" is not there");
}

TEST_F(PluginCatalogTest, ANameThatIsNotKebabCaseBreaksThePlugin) {
  write_plugin("my-plugin", json{{"name", "My Plugin"}});
  const Problem problem = problem_about(load(), "my-plugin@team");
  EXPECT_EQ(problem.file, plugin_dir("my-plugin") / ".claude-plugin/plugin.json");
  EXPECT_TRUE(problem.message.starts_with("my-plugin@team: name: \"My Plugin\" is not kebab-case"))
      << problem.message;
}

TEST_F(PluginCatalogTest, LoadsAPluginClaudeCodeInstalled) {
  const fs::path cache = home() / ".claude/plugins/cache/acme/deployer/2.0.0";
  dir_.write(cache / ".claude-plugin/plugin.json",
             json{{"name", "deployer"}, {"description", "Deploys"}}.dump());
  dir_.write(cache / "commands/ship.md", "Ship.\n");
  const fs::path elsewhere = home() / ".claude/plugins/cache/acme/deployer/1.0.0";
  dir_.write(elsewhere / ".claude-plugin/plugin.json", json{{"name", "deployer"}}.dump());
  // installed_plugins.json, version 2: a user install, and an older project install of another
  // project, which does not apply here.
  dir_.write(home() / ".claude/plugins/installed_plugins.json",
             json{{"version", 2},
                  {"plugins",
                   {{"deployer@acme", json::array({{{"scope", "project"},
                                                    {"projectPath", "/somewhere/else"},
                                                    {"installPath", elsewhere.string()},
                                                    {"version", "1.0.0"}},
                                                   {{"scope", "user"},
                                                    {"installPath", cache.string()},
                                                    {"version", "2.0.0"},
                                                    {"installedAt", "2026-01-07T00:15:19.929Z"},
                                                    {"gitCommitSha", "b9e16498"}}})}}}}
                 .dump(2));
  dir_.write(home() / ".claude/plugins/known_marketplaces.json",
             json{{"acme",
                   {{"source", {{"source", "github"}, {"repo", "acme/plugins"}}},
                    {"installLocation", (home() / ".claude/plugins/marketplaces/acme").string()},
                    {"lastUpdated", "2026-03-20T02:42:55.140Z"}}}}
                 .dump(2));
  const json settings = {{"enabledPlugins", {{"deployer@acme", true}}}};
  const PluginCatalog catalog =
      load_plugins(home(), project(), {{user_settings_file(), &settings, true}});
  EXPECT_TRUE(catalog.problems.empty()) << ::testing::PrintToString(texts(catalog.problems));
  ASSERT_EQ(catalog.plugins.size(), 1u);
  const Plugin& plugin = catalog.plugins[0];
  EXPECT_EQ(plugin.id(), "deployer@acme");
  EXPECT_EQ(plugin.root, cache);
  EXPECT_EQ(plugin.version, "2.0.0");  // the install's, as plugin.json gives none
  EXPECT_EQ(plugin.commands, (std::vector<fs::path>{cache / "commands"}));

  // Installed for this project only, it is used here (version 1 recorded one install per key).
  dir_.write(home() / ".claude/plugins/installed_plugins.json",
             json{{"version", 1},
                  {"plugins",
                   {{"deployer@acme",
                     {{"scope", "local"},
                      {"projectPath", project().string()},
                      {"installPath", elsewhere.string()}}}}}}
                 .dump(2));
  const PluginCatalog local =
      load_plugins(home(), project(), {{user_settings_file(), &settings, true}});
  ASSERT_EQ(local.plugins.size(), 1u);
  EXPECT_EQ(local.plugins[0].root, elsewhere);
}

TEST_F(PluginCatalogTest, NoPluginEnabledReadsNothing) {
  const json settings = {{"enabledPlugins", {{"my-plugin@team", false}}}};
  dir_.write(home() / ".claude/plugins/installed_plugins.json", "not JSON");
  const PluginCatalog catalog =
      load_plugins(home(), project(), {{user_settings_file(), &settings, true}});
  EXPECT_TRUE(catalog.plugins.empty());
  EXPECT_TRUE(catalog.problems.empty()) << ::testing::PrintToString(texts(catalog.problems));
}

TEST_F(PluginCatalogTest, TheLoadersNameThePluginsPartsAfterIt) {
  ExtensionRoots roots{project(), dir_.path() / "config", home(), load().plugins};

  const CommandCatalog commands = load_commands(roots, {});
  EXPECT_TRUE(commands.problems.empty()) << ::testing::PrintToString(texts(commands.problems));
  const auto hello = commands.find("my-plugin:hello");
  ASSERT_TRUE(hello.ok()) << hello.error();
  EXPECT_EQ(commands.find("hello").value(), hello.value());  // the prefix is optional
  EXPECT_EQ(hello.value()->origin, Origin::kPlugin);
  EXPECT_EQ(hello.value()->label(), "(plugin:my-plugin)");
  EXPECT_EQ(hello.value()->body,
            "Greet $ARGUMENTS with " + (plugin_dir("my-plugin") / "greeting.txt").string());
  EXPECT_TRUE(commands.find("entry-plugin:ship").ok());

  const AgentCatalog agents = load_agent_definitions(roots);
  const AgentDefinition* reviewer = agents.find("my-plugin:reviewer");
  ASSERT_NE(reviewer, nullptr) << ::testing::PrintToString(texts(agents.problems));
  EXPECT_EQ(reviewer->origin, Origin::kPlugin);
  EXPECT_EQ(agents.find("reviewer"), nullptr);

  const SkillCatalog skills = load_skills(roots);
  const SkillDefinition* pdf = skills.find("my-plugin:pdf");
  ASSERT_NE(pdf, nullptr) << ::testing::PrintToString(texts(skills.problems));
  EXPECT_EQ(pdf->origin, Origin::kPlugin);
  EXPECT_EQ(pdf->instructions,
            "Run " + (plugin_dir("my-plugin") / "scripts/fill.py").string() + ".");
}

TEST_F(PluginCatalogTest, TheUsersOwnCommandWinsOverAPlugins) {
  dir_.write(home() / ".claude/commands/hello.md", "Hello from the user.\n");
  const CommandCatalog commands =
      load_commands({project(), dir_.path() / "config", home(), load().plugins}, {});
  EXPECT_EQ(commands.find("hello").value()->origin, Origin::kUserClaude);
  EXPECT_EQ(commands.find("my-plugin:hello").value()->origin, Origin::kPlugin);
}

// A repository's settings may declare marketplaces of their own, not move the user's: the
// plugin the user enabled still comes from the user's folder. A plugin whose marketplace the
// project declared, or that lies in the project, is the project's (its MCP servers wait for
// approval).
TEST_F(PluginCatalogTest, AProjectCannotMoveTheUsersMarketplace) {
  dir_.write("project/evil/.claude-plugin/marketplace.json",
             json{{"name", "team"},
                  {"owner", {{"name", "x"}}},
                  {"plugins", json::array({{{"name", "my-plugin"}, {"source", "./my-plugin"}}})}}
                 .dump());
  dir_.write("project/evil/my-plugin/.claude-plugin/plugin.json", R"({"name": "my-plugin"})");
  dir_.write("project/own/.claude-plugin/marketplace.json",
             json{{"name", "own"},
                  {"owner", {{"name", "x"}}},
                  {"plugins", json::array({{{"name", "local-tool"}, {"source", "./local-tool"}}})}}
                 .dump());
  dir_.write("project/own/local-tool/.claude-plugin/plugin.json", R"({"name": "local-tool"})");
  const json declaring = {{"enabledPlugins", {{"local-tool@own", true}}},
                          {"extraKnownMarketplaces",
                           {{"team", {{"source", {{"source", "directory"}, {"path", "./evil"}}}}},
                            {"own", {{"source", {{"source", "directory"}, {"path", "./own"}}}}}}}};
  const PluginCatalog catalog = load_plugins(
      home(), project(),
      {{user_settings_file(), &user_settings_, true}, {project_settings_file(), &declaring}});
  ASSERT_EQ(plugin_names(catalog),
            (std::vector<std::string>{"disabled-plugin", "local-tool", "my-plugin"}));
  EXPECT_EQ(catalog.plugins[2].root, plugin_dir("my-plugin"));
  EXPECT_FALSE(catalog.plugins[2].from_project);
  EXPECT_TRUE(catalog.plugins[1].from_project);
  bool refused = false;
  for (const Problem& problem : catalog.problems) {
    refused |=
        problem.file == project_settings_file() &&
        problem.message.find("\"team\" is already a marketplace of yours") != std::string::npos;
  }
  EXPECT_TRUE(refused) << ::testing::PrintToString(texts(catalog.problems));
}

// A part path that leads out of the plugin through a symbolic link is refused like "../".
TEST_F(PluginCatalogTest, APartPathLeadingOutThroughALinkIsRefused) {
  write_plugin("my-plugin", json{{"name", "my-plugin"}, {"commands", json::array({"./cmds"})}});
  dir_.write("outside/escaped.md", "Not the plugin's.\n");
  fs::create_directory_symlink(dir_.path() / "outside", plugin_dir("my-plugin") / "cmds");
  const PluginCatalog catalog = load();
  for (const Plugin& plugin : catalog.plugins) EXPECT_NE(plugin.name, "my-plugin");
  EXPECT_NE(problem_about(catalog, "my-plugin@team").message.find("leads out of"),
            std::string::npos)
      << ::testing::PrintToString(texts(catalog.problems));
}

}  // namespace
}  // namespace nib::extensions
