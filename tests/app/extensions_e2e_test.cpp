// End-to-end: skills and custom commands in Claude Code's documented formats, through the real
// nib binary in print mode against the mock OpenAI server: the skills listed in the system
// prompt and loaded with the skill tool, a user-started skill, commands expanded with their
// arguments and @file includes on their own model, namespaced commands, broken definitions
// reported with file and line, and an unknown /command refused with close matches.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

// Claude Code's skill format: a folder with SKILL.md (name, description) and resources.
constexpr const char* kPdfSkill =
    "---\n"
    "name: pdf-forms\n"
    "description: Fill in PDF forms. Use when the user mentions PDF forms.\n"
    "allowed-tools: Bash(python3:*) Read\n"
    "---\n"
    "\n"
    "# PDF forms\n"
    "\n"
    "Fill $ARGUMENTS using the script in ${CLAUDE_SKILL_DIR}/scripts/fill.py.\n";

// Claude Code's command format: front matter, $1/$2/$ARGUMENTS and @path includes.
constexpr const char* kReviewCommand =
    "---\n"
    "description: Review a file for a kind of problem\n"
    "argument-hint: [file] [concern]\n"
    "model: gpt-5-mini\n"
    "---\n"
    "Review @$1 for $2 (asked: $ARGUMENTS). Follow @docs/style.md.\n";

class ExtensionsTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock-model"}};
  }
  NibResult run(std::vector<std::string> args) { return run_nib(args, dir_.path(), env()); }

  std::string system_prompt(std::size_t request) const {
    return server_.requests().at(request).body["messages"][0]["content"];
  }
  std::string user_message(std::size_t request) const {
    return server_.requests().at(request).body["messages"][1]["content"];
  }
  static std::vector<std::string> tool_names(const json& body) {
    std::vector<std::string> names;
    for (const auto& tool : body["tools"]) names.push_back(tool["function"]["name"]);
    return names;
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(ExtensionsTest, ASkillIsListedByDescriptionAndTheModelLoadsIt) {
  dir_.write(".claude/skills/pdf-forms/SKILL.md", kPdfSkill);
  dir_.write(".claude/skills/pdf-forms/scripts/fill.py", "print('fill')\n");
  dir_.write(".claude/skills/pdf-forms/reference.md", "fields\n");
  server_.enqueue(MockReply::tool_calls(
      {{"call_skill", "skill", R"({"name":"pdf-forms","arguments":"form.pdf"})"}}));
  server_.enqueue(MockReply::text("Filled."));
  const auto result = run({"-p", "fill in form.pdf"});

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("✓ skill pdf-forms")) << result.err;
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_THAT(tool_names(requests[0].body), ::testing::Contains("skill"));
  // The name and description only; the instructions wait until the skill is loaded.
  EXPECT_THAT(system_prompt(0),
              HasSubstr("load it with the skill tool before starting):\n- pdf-forms: Fill in PDF "
                        "forms. Use when the user mentions PDF forms.\n"));
  EXPECT_THAT(system_prompt(0), Not(HasSubstr("fill.py")));
  const std::string loaded = requests[1].body["messages"].back()["content"];
  const std::string folder = (dir_.path() / ".claude/skills/pdf-forms").string();
  EXPECT_THAT(loaded, HasSubstr("<skill name=\"pdf-forms\" folder=\"" + folder + "\">"));
  EXPECT_THAT(loaded,
              HasSubstr("Fill form.pdf using the script in " + folder + "/scripts/fill.py."));
  EXPECT_THAT(loaded, HasSubstr("- reference.md\n- scripts/fill.py\n")) << loaded;
}

TEST_F(ExtensionsTest, ABrokenSkillIsReportedWithFileAndLineAndLeftOut) {
  dir_.write(".claude/skills/pdf-forms/SKILL.md", kPdfSkill);
  dir_.write(".claude/skills/broken/SKILL.md",
             "---\nname: broken\ndescription: [unclosed\n---\nbody\n");
  server_.enqueue(MockReply::text("ok"));
  const auto result = run({"-p", "hi"});

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("nib: warning: a skill was left out or changed: " +
                                    (dir_.path() / ".claude/skills/broken/SKILL.md").string() +
                                    ":4: front matter is not valid YAML"))
      << result.err;
  // Once, though HOME is the working directory here: ~/.claude is read once.
  EXPECT_EQ(result.err.find("broken/SKILL.md"), result.err.rfind("broken/SKILL.md")) << result.err;
  EXPECT_THAT(system_prompt(0), HasSubstr("- pdf-forms:"));
  EXPECT_THAT(system_prompt(0), Not(HasSubstr("broken")));
}

TEST_F(ExtensionsTest, WithoutSkillsThereIsNoSkillToolOrSection) {
  server_.enqueue(MockReply::text("ok"));
  ASSERT_EQ(run({"-p", "hi"}).exit_code, 0);
  EXPECT_THAT(tool_names(server_.requests().at(0).body), Not(::testing::Contains("skill")));
  EXPECT_THAT(system_prompt(0), Not(HasSubstr("Skills (")));
}

TEST_F(ExtensionsTest, TheUserStartsASkillWithSlashItsName) {
  dir_.write(".claude/skills/pdf-forms/SKILL.md", kPdfSkill);
  server_.enqueue(MockReply::text("Filled."));
  const auto result = run({"-p", "/pdf-forms tax.pdf"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(user_message(0), HasSubstr("<skill name=\"pdf-forms\""));
  EXPECT_THAT(user_message(0), HasSubstr("Fill tax.pdf using the script"));
}

TEST_F(ExtensionsTest, ACustomCommandIsExpandedWithItsArgumentsAndFilesOnItsModel) {
  dir_.write(".claude/commands/review.md", kReviewCommand);
  dir_.write("src/foo.cpp", "int main() { return 0; }\n");
  dir_.write("docs/style.md", "Use four spaces.\n");
  server_.enqueue(MockReply::text("Looks fine."));
  const auto result = run({"-p", "/review src/foo.cpp \"memory leaks\""});

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "Looks fine.\n");
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].body["model"], "gpt-5-mini");
  EXPECT_EQ(user_message(0),
            "Review @src/foo.cpp for memory leaks (asked: src/foo.cpp \"memory leaks\"). Follow "
            "@docs/style.md.\n\n"
            "<file path=\"src/foo.cpp\">\nint main() { return 0; }\n</file>\n\n"
            "<file path=\"docs/style.md\">\nUse four spaces.\n</file>");
}

TEST_F(ExtensionsTest, ANamespacedCommandAnswersToItsNameAndItsFolderQualifiedName) {
  dir_.write(".claude/commands/frontend/component.md",
             "Create a React component named $ARGUMENTS.\n");
  server_.enqueue(MockReply::text("one"));
  server_.enqueue(MockReply::text("two"));
  ASSERT_EQ(run({"-p", "/component Button"}).exit_code, 0);
  ASSERT_EQ(run({"-p", "/frontend:component Card"}).exit_code, 0);
  EXPECT_EQ(user_message(0), "Create a React component named Button.");
  EXPECT_EQ(server_.requests().at(1).body["messages"][1]["content"],
            "Create a React component named Card.");
}

TEST_F(ExtensionsTest, AnUnknownCommandIsRefusedWithTheClosestOneAndAPathIsAPrompt) {
  dir_.write(".claude/commands/review.md", kReviewCommand);
  const auto refused = run({"-p", "/reveiw src/foo.cpp"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("nib: unknown command /reveiw. Did you mean /review? Custom "
                                     "commands: /review; no skills."))
      << refused.err;
  EXPECT_TRUE(server_.requests().empty());

  server_.enqueue(MockReply::text("It is the temporary directory."));
  const auto path = run({"-p", "/tmp is full, why?"});
  ASSERT_EQ(path.exit_code, 0) << path.err;
  EXPECT_EQ(user_message(0), "/tmp is full, why?");
}

TEST_F(ExtensionsTest, ACommandNamedLikeABuiltInIsReportedAndLeftOut) {
  dir_.write(".claude/commands/model.md", "Pick a model.\n");
  server_.enqueue(MockReply::text("ok"));
  const auto result = run({"-p", "hi"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("nib: warning: a custom command was left out or changed: " +
                                    (dir_.path() / ".claude/commands/model.md").string() +
                                    ": /model is a built-in command"))
      << result.err;
}

}  // namespace
}  // namespace nib::testing
