#pragma once
// Subagent definitions: nib's built-in `general` and `explore`, and Markdown files in Claude
// Code's format (its "Create custom subagents" page, code.claude.com/docs/en/sub-agents):
//
//   ---
//   name: code-reviewer            required; lowercase letters, digits, hyphens
//   description: Reviews diffs...  required; the task tool lists it so the model can choose
//   tools: Read, Grep, Glob        optional allowlist, comma list or YAML list
//   disallowedTools: Bash          optional denylist, applied before the allowlist
//   model: sonnet                  optional; absent or "inherit": the parent's model
//   thinking: high                 optional (nib): off, low, medium, high
//   effort: high                   optional (Claude Code): low, medium, high, xhigh, max
//   maxTurns: 20                   optional: model requests before the subagent stops
//   skills: pdf-forms, commit      optional: skills whose instructions the subagent starts with
//   ---
//   The body: the subagent's system prompt.
//
// The file name does not matter (identity is `name`, as in Claude Code). Claude Code's other
// keys (color, permissionMode, hooks, mcpServers, skills, memory, ...) are accepted and
// ignored; a known key with a value of the wrong type leaves the definition out with the
// key's line. Pure; thread-safe.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/provider.hpp"
#include "extensions/definition_files.hpp"
#include "extensions/front_matter.hpp"
#include "extensions/problem.hpp"

namespace nib::extensions {

// The tool that starts subagents (issue 14's task tool).
inline constexpr std::string_view kTaskToolName = "task";

struct AgentDefinition {
  std::string name;
  std::string description;
  std::string system_prompt;  // the body, without leading and trailing blank lines

  // The tools the agent may use, by nib's names (Claude Code's are mapped through
  // core/claude_tool_names: Read → read, Glob → find), in the order written, each once. Other
  // names are kept as written: Claude Code's tools nib does not have (NotebookEdit) for
  // claude_tools_nib_lacks_notice to name, unknown ones for validate_agent_tools to report.
  // nullopt (no `tools` key): every tool of the parent but task. Claude Code's subagents
  // inherit every tool when `tools` is absent and can never start subagents themselves; nib
  // lets a definition grant task by naming it (Task or Agent).
  std::optional<std::vector<std::string>> tools;
  std::vector<std::string> disallowed_tools;  // removed first, as Claude Code does
  // "Agent(worker, researcher)" (or Task(...)) in `tools`: the only agents this one may start;
  // nullopt when task is granted without a list (any agent) or not at all.
  std::optional<std::vector<std::string>> task_agents;

  // As written ("sonnet", "opus", "haiku", "claude-sonnet-4-5", "gpt-5"): the caller maps it
  // to a model of the run's provider. nullopt: the parent's model (absent or "inherit").
  std::optional<std::string> model;
  std::optional<core::ThinkingLevel> thinking;  // nullopt: the parent's level
  std::optional<int> max_turns;                 // nullopt: the parent's limit
  // Skills to load into the subagent's context when it starts (Claude Code's `skills`), as
  // written, each once: the caller finds them in the SkillCatalog and reports missing ones.
  std::vector<std::string> skills;

  Origin origin = Origin::kBuiltin;
  std::filesystem::path file;  // empty for built-ins
  int tools_line = 0;          // the `tools` key's line, for validate_agent_tools
  int disallowed_tools_line = 0;
};

// general (every tool but task) and explore (read-only: read, grep, find, ls; bash comes once
// the permission layer can hold it to read-only commands), sorted by name.
std::vector<AgentDefinition> builtin_agents();

using AgentParse = DefinitionParse<AgentDefinition>;

// The definition in `document`, read from `file`. Problems: no front matter, name or
// description missing or empty, a name that is not valid, a known key of the wrong type or
// value (the definition is left out); a tool entry with a specifier nib cannot hold it to, such
// as "Bash(git:*)" (that tool is left out, the definition kept).
AgentParse parse_agent_definition(const MarkdownDocument& document,
                                  const std::filesystem::path& file, Origin origin);

// Problems for the names in `definition`'s tools and disallowedTools that are not among
// `available` (the run's tool names, task included when it exists), with the closest name.
// MCP tools (mcp__<server>__<tool>) are not checked: their servers may not be ready yet. Nor
// are Claude Code's tools that nib does not have (core::is_claude_tool_nib_lacks): a definition
// written for Claude Code names them on purpose, and the agent runs without them.
//   "<file>:3: tools: unknown tool \"Wirte\" (did you mean \"write\"?); available: ..."
std::vector<Problem> validate_agent_tools(const AgentDefinition& definition,
                                          const std::vector<std::string>& available);

// One line for the whole session, where each agent would cost one per start: the Claude Code
// tools nib does not have that the `tools` lists of `definitions` name, in the order first
// named, each with the agents naming it; "" when none do.
//   "agents name Claude Code tools nib does not have, so they run without them: NotebookRead
//   (code-reviewer, docs-writer), WebSearch (researcher)"
// `hosted_web_search`: the service searches the web, so WebSearch is not lacking.
std::string claude_tools_nib_lacks_notice(const std::vector<AgentDefinition>& definitions,
                                          bool hosted_web_search);

// Whether the agent may use the service's hosted web search when the run has it: its `tools`
// name WebSearch, or it has no list (every tool), and disallowedTools does not name it.
bool agent_searches_web(const AgentDefinition& definition);

// The tools `definition` gets out of `available`, in available's order: the allowlist (or
// every tool but task without one), less the denylist. Unknown names are passed over.
std::vector<std::string> agent_tool_names(const AgentDefinition& definition,
                                          const std::vector<std::string>& available);

}  // namespace nib::extensions
