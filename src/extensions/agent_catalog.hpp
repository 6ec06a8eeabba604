#pragma once
// The agents a run can start: the built-ins and the definitions found on disk, one per name,
// with the problems met on the way for the start-up report, and the listing the task tool's
// description shows. Reads files only; thread-safe (a loaded catalog is a plain value).
//
// Folders, best first: <project>/.nib/agents, <project>/.claude/agents, <user config>/agents
// (~/.config/nib/agents), ~/.claude/agents, each searched recursively (Claude Code scans
// sub-folders; identity is the `name` key alone). When names collide the better folder wins,
// as in Claude Code (project over user); a file may also replace a built-in by taking its name
// (Claude Code lets a custom agent named like a built-in override it), so a project can give
// `explore` the tools it needs. Two files in one folder with the same name are a problem, and
// the first by path is kept. The enabled plugins' agents come last, named after their plugin
// (my-plugin:reviewer), with ${CLAUDE_PLUGIN_ROOT} in their prompts replaced.

#include <string>
#include <vector>

#include "extensions/agent_definition.hpp"
#include "extensions/definition_files.hpp"
#include "extensions/problem.hpp"

namespace nib::extensions {

struct AgentCatalog {
  std::vector<AgentDefinition> agents;  // sorted by name
  std::vector<Problem> problems;        // in the order met

  // The agent named `name`, or nullptr.
  const AgentDefinition* find(std::string_view name) const;
};

// Every agent for `roots`. Never fails: a definition that cannot be used is a problem and left
// out, and the built-ins are always there unless a file replaces them.
AgentCatalog load_agent_definitions(const ExtensionRoots& roots);

// The agents as the task tool's description lists them, sorted by name:
//   "- explore: Fast read-only agent ...\n- general: ...\n"
// Descriptions are cut at kMaxListedDescriptionBytes; their line breaks are kept, with the
// following lines indented under the entry.
std::string agent_listing(const std::vector<AgentDefinition>& agents);

}  // namespace nib::extensions
