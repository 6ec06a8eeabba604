#include "extensions/agent_definition.hpp"

#include <gtest/gtest.h>

namespace nib::extensions {
namespace {

using Names = std::vector<std::string>;

const Names kAvailable = {"read", "grep", "find", "ls", "bash", "edit", "write", "task"};

AgentParse parse(std::string_view text) {
  MarkdownParse markdown = parse_markdown(text, "agents/foo.md");
  EXPECT_TRUE(markdown.document) << markdown.problem.text();
  return parse_agent_definition(markdown.document ? *markdown.document : MarkdownDocument{},
                                "agents/foo.md", Origin::kProjectClaude);
}

AgentDefinition parsed_agent(std::string_view text) {
  AgentParse result = parse(text);
  EXPECT_TRUE(result.definition);
  for (const Problem& problem : result.problems) ADD_FAILURE() << problem.text();
  return result.definition ? *result.definition : AgentDefinition{};
}

// The one problem that leaves the definition out.
Problem rejection(std::string_view text) {
  AgentParse result = parse(text);
  EXPECT_FALSE(result.definition);
  EXPECT_EQ(result.problems.size(), 1u);
  return result.problems.empty() ? Problem{} : result.problems[0];
}

TEST(AgentDefinitionTest, ReadsClaudeCodesFormat) {
  const AgentDefinition agent = parsed_agent(
      "---\n"
      "name: code-reviewer\n"
      "description: Reviews code. Use after changes.\n"
      "tools: Read, Grep, Glob, Bash\n"
      "model: sonnet\n"
      "color: blue\n"
      "permissionMode: plan\n"
      "---\n"
      "\n"
      "You are a senior code reviewer.\n\n");
  EXPECT_EQ(agent.name, "code-reviewer");
  EXPECT_EQ(agent.description, "Reviews code. Use after changes.");
  EXPECT_EQ(agent.system_prompt, "You are a senior code reviewer.");
  EXPECT_EQ(agent.tools, (Names{"read", "grep", "find", "bash"}));
  EXPECT_EQ(agent.tools_line, 4);
  EXPECT_EQ(agent.model, "sonnet");
  EXPECT_FALSE(agent.thinking);
  EXPECT_FALSE(agent.max_turns);
  EXPECT_EQ(agent.origin, Origin::kProjectClaude);
  EXPECT_EQ(agent.file, "agents/foo.md");
}

// Every key Claude Code's sub-agents page documents loads without a problem; nib reads its own
// and passes over the others.
TEST(AgentDefinitionTest, EveryDocumentedKeyLoads) {
  const AgentDefinition agent = parsed_agent(
      "---\n"
      "name: full\n"
      "description: Uses every key\n"
      "tools: Read, Grep, Bash, BashOutput, KillShell, WebFetch\n"
      "disallowedTools: Write\n"
      "model: haiku\n"
      "permissionMode: acceptEdits\n"
      "maxTurns: 12\n"
      "skills:\n  - pdf-forms\n"
      "mcpServers:\n  - github\n  - db:\n      command: db-server\n"
      "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n"
      "        - type: command\n          command: ./check.sh\n"
      "memory: project\n"
      "background: true\n"
      "effort: high\n"
      "isolation: worktree\n"
      "color: green\n"
      "initialPrompt: Start by reading the README.\n"
      "---\n"
      "Body.\n");
  EXPECT_EQ(agent.name, "full");
  EXPECT_EQ(agent.tools, (Names{"read", "grep", "bash", "job_output", "job_kill", "web_fetch"}));
  EXPECT_EQ(agent.disallowed_tools, Names{"write"});
  EXPECT_EQ(agent.model, "haiku");
  EXPECT_EQ(agent.max_turns, 12);
  EXPECT_EQ(agent.skills, Names{"pdf-forms"});
  EXPECT_EQ(agent.thinking, core::ThinkingLevel::kHigh);
  EXPECT_EQ(agent.system_prompt, "Body.");
}

// Anthropic's published agents write examples at the left edge inside the description, which
// strict YAML refuses; Claude Code loads them with the whole text as the description.
TEST(AgentDefinitionTest, AnthropicsMultiLineDescriptionsLoadWhole) {
  const AgentDefinition agent = parsed_agent(
      "---\n"
      "name: agent-creator\n"
      "description: Use this agent when the user asks to \"create an agent\". Examples:\n"
      "\n"
      "<example>\n"
      "Context: The user wants a code review agent\n"
      "user: \"Create an agent that reviews code\"\n"
      "assistant: \"I'll use the agent-creator agent.\"\n"
      "<commentary>\n"
      "User requests new agent creation.\n"
      "</commentary>\n"
      "</example>\n"
      "\n"
      "model: sonnet\n"
      "color: magenta\n"
      "tools: [\"Read\", \"Write\", \"Grep\"]\n"
      "---\n"
      "You create agents.\n");
  EXPECT_EQ(agent.name, "agent-creator");
  EXPECT_EQ(agent.description,
            "Use this agent when the user asks to \"create an agent\". Examples:\n"
            "\n"
            "<example>\n"
            "Context: The user wants a code review agent\n"
            "user: \"Create an agent that reviews code\"\n"
            "assistant: \"I'll use the agent-creator agent.\"\n"
            "<commentary>\n"
            "User requests new agent creation.\n"
            "</commentary>\n"
            "</example>");
  EXPECT_EQ(agent.model, "sonnet");
  EXPECT_EQ(agent.tools, (Names{"read", "write", "grep"}));
  EXPECT_EQ(agent.tools_line, 16);
  EXPECT_EQ(agent.system_prompt, "You create agents.");
}

TEST(AgentDefinitionTest, ToolsAsAYamlListAndNibsOwnNames) {
  const AgentDefinition agent = parsed_agent(
      "---\nname: a\ndescription: d\ntools:\n  - Read\n  - edit\n  - MultiEdit\n  - Edit\n---\n");
  EXPECT_EQ(agent.tools, (Names{"read", "edit"}));
}

TEST(AgentDefinitionTest, WithoutToolsItGetsEveryToolButTask) {
  const AgentDefinition agent = parsed_agent("---\nname: a\ndescription: d\n---\n");
  EXPECT_FALSE(agent.tools);
  EXPECT_EQ(agent_tool_names(agent, kAvailable),
            (Names{"read", "grep", "find", "ls", "bash", "edit", "write"}));
  // An empty value is the same as none; an empty list grants nothing.
  EXPECT_FALSE(parsed_agent("---\nname: a\ndescription: d\ntools:\n---\n").tools);
  const AgentDefinition none = parsed_agent("---\nname: a\ndescription: d\ntools: []\n---\n");
  EXPECT_EQ(none.tools, Names{});
  EXPECT_TRUE(agent_tool_names(none, kAvailable).empty());
}

// apply_patch does Edit's and Write's job: a list granting either grants it, a list taking
// either away takes it away.
TEST(AgentDefinitionTest, EditAndWriteCoverApplyPatch) {
  const Names available = {"read", "edit", "write", "apply_patch", "bash"};
  const AgentDefinition editor =
      parsed_agent("---\nname: a\ndescription: d\ntools: Read, Edit\n---\n");
  EXPECT_EQ(agent_tool_names(editor, available), (Names{"read", "edit", "apply_patch"}));
  const AgentDefinition reader =
      parsed_agent("---\nname: a\ndescription: d\ndisallowedTools: Write\n---\n");
  EXPECT_EQ(agent_tool_names(reader, available), (Names{"read", "edit", "bash"}));
  const AgentDefinition reads_only =
      parsed_agent("---\nname: a\ndescription: d\ntools: Read\n---\n");
  EXPECT_EQ(agent_tool_names(reads_only, available), (Names{"read"}));
}

TEST(AgentDefinitionTest, TaskOnlyWhenGranted) {
  const AgentDefinition agent =
      parsed_agent("---\nname: a\ndescription: d\ntools: Read, Task\n---\n");
  EXPECT_EQ(agent_tool_names(agent, kAvailable), (Names{"read", "task"}));
  EXPECT_FALSE(agent.task_agents);

  const AgentDefinition limited =
      parsed_agent("---\nname: a\ndescription: d\ntools: Agent(worker, researcher), Read\n---\n");
  EXPECT_EQ(limited.tools, (Names{"task", "read"}));
  EXPECT_EQ(limited.task_agents, (Names{"worker", "researcher"}));
}

TEST(AgentDefinitionTest, TheDenylistComesOffFirst) {
  const AgentDefinition denied =
      parsed_agent("---\nname: a\ndescription: d\ndisallowedTools: Write, Edit\n---\n");
  EXPECT_EQ(agent_tool_names(denied, kAvailable), (Names{"read", "grep", "find", "ls", "bash"}));
  const AgentDefinition both = parsed_agent(
      "---\nname: a\ndescription: d\ntools: [Read, Bash]\ndisallowedTools: [Bash]\n---\n");
  EXPECT_EQ(agent_tool_names(both, kAvailable), (Names{"read"}));
  EXPECT_EQ(both.disallowed_tools_line, 5);
}

TEST(AgentDefinitionTest, ASpecifierNibCannotHoldIsTheSafeSide) {
  AgentParse result = parse(
      "---\nname: a\ndescription: d\ntools: Read, Bash(git:*)\n"
      "disallowedTools: Bash(rm:*)\n---\n");
  ASSERT_TRUE(result.definition);
  EXPECT_EQ(result.definition->tools, Names{"read"});
  EXPECT_EQ(result.definition->disallowed_tools, Names{"bash"});
  ASSERT_EQ(result.problems.size(), 2u);
  EXPECT_EQ(result.problems[0].text(),
            "agents/foo.md:4: tools: \"Bash(git:*)\": nib grants bash whole or not at all, so it "
            "is left out; write \"Bash\" to grant it");
  EXPECT_EQ(result.problems[1].line, 5);
  EXPECT_NE(result.problems[1].message.find("denies bash whole"), std::string::npos);
}

TEST(AgentDefinitionTest, ModelThinkingAndTurns) {
  AgentDefinition agent = parsed_agent(
      "---\nname: a\ndescription: d\nmodel: inherit\nthinking: off\nmaxTurns: 12\n---\n");
  EXPECT_FALSE(agent.model);
  EXPECT_EQ(agent.thinking, core::ThinkingLevel::kOff);
  EXPECT_EQ(agent.max_turns, 12);
  agent =
      parsed_agent("---\nname: a\ndescription: d\nmodel: claude-opus-4-1\nthinking: high\n---\n");
  EXPECT_EQ(agent.model, "claude-opus-4-1");
  EXPECT_EQ(agent.thinking, core::ThinkingLevel::kHigh);
  // Claude Code's effort: its levels above high are nib's high; thinking wins over it.
  EXPECT_EQ(parsed_agent("---\nname: a\ndescription: d\neffort: medium\n---\n").thinking,
            core::ThinkingLevel::kMedium);
  EXPECT_EQ(parsed_agent("---\nname: a\ndescription: d\neffort: max\n---\n").thinking,
            core::ThinkingLevel::kHigh);
  EXPECT_EQ(
      parsed_agent("---\nname: a\ndescription: d\neffort: low\nthinking: off\n---\n").thinking,
      core::ThinkingLevel::kOff);
}

TEST(AgentDefinitionTest, SkillsToPreload) {
  EXPECT_EQ(parsed_agent("---\nname: a\ndescription: d\nskills: pdf-forms, commit\n---\n").skills,
            (Names{"pdf-forms", "commit"}));
  EXPECT_EQ(parsed_agent("---\nname: a\ndescription: d\nskills: [x, y, x]\n---\n").skills,
            (Names{"x", "y"}));
  EXPECT_TRUE(parsed_agent("---\nname: a\ndescription: d\n---\n").skills.empty());
  EXPECT_EQ(rejection("---\nname: a\ndescription: d\nskills: {x: 1}\n---\n").line, 4);
}

TEST(AgentDefinitionTest, MissingPiecesLeaveItOut) {
  Problem problem = rejection("You review code.\n");
  EXPECT_EQ(problem.line, 1);
  EXPECT_NE(problem.message.find("no front matter"), std::string::npos);

  problem = rejection("---\ndescription: d\n---\n");
  EXPECT_EQ(problem.text(),
            "agents/foo.md:1: name: missing or empty; add a line such as name: reviewer");

  problem = rejection("---\nname: a\ndescription: \"\"\n---\n");
  EXPECT_EQ(problem.line, 3);
  EXPECT_NE(problem.message.find("description: missing or empty"), std::string::npos);
}

TEST(AgentDefinitionTest, BadNamesLeaveItOut) {
  for (const char* name : {"Code-Reviewer", "code reviewer", "code_reviewer", "-a"}) {
    const Problem problem =
        rejection("---\ndescription: d\nname: " + std::string(name) + "\n---\n");
    EXPECT_EQ(problem.line, 3) << name;
  }
  EXPECT_EQ(rejection("---\nname: Code Reviewer\ndescription: d\n---\n").text(),
            "agents/foo.md:2: name: \"Code Reviewer\" is not a valid agent name; use 1 to 64 "
            "lowercase letters, digits and hyphens, such as \"code-reviewer\"");
}

TEST(AgentDefinitionTest, WrongTypesForKnownKeysLeaveItOutWithTheirLine) {
  EXPECT_EQ(rejection("---\nname: [a, b]\ndescription: d\n---\n").text(),
            "agents/foo.md:2: name: must be a single value, not a list");
  EXPECT_EQ(rejection("---\nname: a\ndescription:\n  long: text\n---\n").text(),
            "agents/foo.md:3: description: must be a single value, not a mapping (key: value "
            "lines)");
  EXPECT_EQ(rejection("---\nname: a\ndescription: d\ntools: {Read: true}\n---\n").line, 4);
  EXPECT_EQ(rejection("---\nname: a\ndescription: d\ntools: [[Read]]\n---\n").text(),
            "agents/foo.md:4: tools: list items must be single values, not a list");
  EXPECT_EQ(rejection("---\nname: a\ndescription: d\nmodel: [sonnet]\n---\n").line, 4);
  EXPECT_EQ(rejection("---\nname: a\ndescription: d\n\nthinking: extreme\n---\n").text(),
            "agents/foo.md:5: thinking: must be off, low, medium or high, got \"extreme\"");
  EXPECT_EQ(rejection("---\nname: a\ndescription: d\neffort: off\n---\n").line, 4);
  EXPECT_EQ(rejection("---\nname: a\ndescription: d\nmaxTurns: 0\n---\n").text(),
            "agents/foo.md:4: maxTurns: must be a whole number from 1 to 1000000, got \"0\"");
  EXPECT_EQ(rejection("---\nname: a\ndescription: d\nmaxTurns: 2.5\n---\n").line, 4);
}

TEST(AgentDefinitionTest, SeveralProblemsAreAllReported) {
  const AgentParse result = parse("---\nname: A\nthinking: lots\n---\n");
  EXPECT_FALSE(result.definition);
  ASSERT_EQ(result.problems.size(), 3u);
  EXPECT_EQ(result.problems[0].line, 2);
  EXPECT_EQ(result.problems[1].line, 1);  // description missing
  EXPECT_EQ(result.problems[2].line, 3);
}

TEST(AgentDefinitionTest, UnknownToolsAreReportedAgainstTheAvailableOnes) {
  const AgentDefinition agent = parsed_agent(
      "---\nname: a\ndescription: d\ntools: Read, Wirte, Deploy\ndisallowedTools: Bsh\n---\n");
  const std::vector<Problem> problems = validate_agent_tools(agent, kAvailable);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].text(),
            "agents/foo.md:4: tools: unknown tool \"Wirte\" (did you mean \"write\"?); "
            "available: read, grep, find, ls, bash, edit, write, task");
  EXPECT_EQ(problems[1].text(),
            "agents/foo.md:4: tools: unknown tool \"Deploy\"; available: read, grep, find, ls, "
            "bash, edit, write, task");
  EXPECT_EQ(problems[2].line, 5);
  EXPECT_NE(problems[2].message.find("disallowedTools: unknown tool \"Bsh\" (did you mean "
                                     "\"bash\"?)"),
            std::string::npos);
  // Unknown names are passed over when the tools are given out.
  EXPECT_EQ(agent_tool_names(agent, kAvailable), Names{"read"});
  // MCP tools are not checked: their servers start in the background. Granted when there.
  const AgentDefinition mcp =
      parsed_agent("---\nname: a\ndescription: d\ntools: Read, mcp__github__get_issue\n---\n");
  EXPECT_TRUE(validate_agent_tools(mcp, {"read"}).empty());
  EXPECT_EQ(agent_tool_names(mcp, {"read", "mcp__github__get_issue", "mcp__github__other"}),
            (Names{"read", "mcp__github__get_issue"}));
}

// A definition written for Claude Code names its tools on purpose: the ones nib does not have
// are not reported per agent, but named once for all agents.
TEST(AgentDefinitionTest, ClaudeToolsNibLacksAreNamedOnceForAllAgents) {
  const AgentDefinition reviewer = parsed_agent(
      "---\nname: code-reviewer\ndescription: d\ntools: Read, NotebookRead, WebSearch, Wirte\n"
      "disallowedTools: NotebookEdit\n---\n");
  const AgentDefinition writer = parsed_agent(
      "---\nname: docs-writer\ndescription: d\ntools: [NotebookRead, Write, BashOutput]\n---\n");
  const AgentDefinition unlisted =
      parsed_agent("---\nname: helper\ndescription: d\ndisallowedTools: WebSearch\n---\n");
  EXPECT_EQ(reviewer.tools, (Names{"read", "NotebookRead", "WebSearch", "Wirte"}));
  // Only the typing mistake is a problem; the agent simply goes without the others.
  const std::vector<Problem> problems = validate_agent_tools(reviewer, kAvailable);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("unknown tool \"Wirte\""), std::string::npos);
  EXPECT_EQ(agent_tool_names(reviewer, kAvailable), Names{"read"});
  EXPECT_TRUE(validate_agent_tools(unlisted, kAvailable).empty());
  // BashOutput is nib's job_output: not missing.
  EXPECT_TRUE(validate_agent_tools(writer, {"write", "job_output"}).empty());
  EXPECT_EQ(agent_tool_names(writer, {"read", "write", "job_output"}),
            (Names{"write", "job_output"}));

  EXPECT_EQ(claude_tools_nib_lacks_notice({reviewer, writer, unlisted}, false),
            "agents name Claude Code tools nib does not have, so they run without them: "
            "NotebookRead (code-reviewer, docs-writer), WebSearch (code-reviewer)");
  // With the service's hosted search, WebSearch is there.
  EXPECT_EQ(claude_tools_nib_lacks_notice({reviewer, writer, unlisted}, true),
            "agents name Claude Code tools nib does not have, so they run without them: "
            "NotebookRead (code-reviewer, docs-writer)");
  EXPECT_EQ(claude_tools_nib_lacks_notice({unlisted}, false), "");
  EXPECT_EQ(claude_tools_nib_lacks_notice(builtin_agents(), false), "");
  EXPECT_TRUE(agent_searches_web(reviewer));
  EXPECT_FALSE(agent_searches_web(writer)) << "its list does not name WebSearch";
  EXPECT_FALSE(agent_searches_web(unlisted)) << "disallowed";
  EXPECT_TRUE(agent_searches_web(builtin_agents().back())) << "general has every tool";
}

TEST(AgentDefinitionTest, NotesFromTheFileAreKept) {
  const AgentParse result = parse("---\nname: a\ndescription: caf\xE9\n---\n");
  ASSERT_TRUE(result.definition);
  ASSERT_EQ(result.problems.size(), 1u);
  EXPECT_NE(result.problems[0].message.find("not valid UTF-8"), std::string::npos);
}

TEST(AgentDefinitionTest, BuiltinsAreGeneralAndAReadOnlyExplore) {
  const std::vector<AgentDefinition> builtins = builtin_agents();
  ASSERT_EQ(builtins.size(), 2u);
  EXPECT_EQ(builtins[0].name, "explore");
  EXPECT_EQ(agent_tool_names(builtins[0], kAvailable), (Names{"read", "grep", "find", "ls"}));
  EXPECT_EQ(builtins[1].name, "general");
  EXPECT_EQ(agent_tool_names(builtins[1], kAvailable),
            (Names{"read", "grep", "find", "ls", "bash", "edit", "write"}));
  for (const AgentDefinition& agent : builtins) {
    EXPECT_EQ(agent.origin, Origin::kBuiltin);
    EXPECT_TRUE(agent.file.empty());
    EXPECT_FALSE(agent.description.empty());
    EXPECT_FALSE(agent.system_prompt.empty());
    EXPECT_TRUE(validate_agent_tools(agent, kAvailable).empty());
  }
}

}  // namespace
}  // namespace nib::extensions
