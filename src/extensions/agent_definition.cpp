#include "extensions/agent_definition.hpp"

#include <algorithm>
#include <cctype>

#include "core/claude_tool_names.hpp"
#include "extensions/front_matter_fields.hpp"
#include "extensions/tool_list.hpp"
#include "util/edit_distance.hpp"

namespace nib::extensions {
namespace {

// Typing mistakes within which an unknown tool name gets a "did you mean".
constexpr std::size_t kSuggestionDistance = 2;
// MCP tools are named mcp__<server>__<tool> (issue 16); their servers start in the background,
// so at start-up their tools are not known yet and cannot be checked.
constexpr std::string_view kMcpToolPrefix = "mcp__";

struct ToolList {
  std::vector<std::string> names;
  std::optional<std::vector<std::string>> task_agents;
};

void add_once(std::vector<std::string>& names, std::string name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
}

// The entries of `key` (an allowlist, or with `deny` a denylist) by nib's names. A specifier
// restricts a tool to part of its use, which nib's tools cannot be held to yet: an allowed
// tool is then left out, a denied one denied whole, the safe side in both cases.
// Notes go to `notes`: they do not leave the definition out.
std::optional<ToolList> read_tool_list(FieldReader& reader, std::string_view key, bool deny,
                                       const std::filesystem::path& file,
                                       std::vector<Problem>& notes) {
  const std::optional<std::vector<std::string>> items = reader.text_or_list(key);
  if (!items) return std::nullopt;
  ToolList list;
  for (const std::string& item : *items) {
    for (ToolEntry& entry : split_tool_list(item)) {
      std::string name(core::nib_tool_name(entry.name));
      if (name == kTaskToolName && entry.specifier && !deny) {
        list.task_agents.emplace();
        for (ToolEntry& agent : split_tool_list(*entry.specifier)) {
          add_once(*list.task_agents, std::move(agent.name));
        }
      } else if (entry.specifier) {
        const std::string written = entry.name + "(" + *entry.specifier + ")";
        if (!deny) {
          notes.push_back({file, reader.line(key),
                           std::string(key) + ": \"" + written + "\": nib grants " + name +
                               " whole or not at all, so it is left out; write \"" + entry.name +
                               "\" to grant it"});
          continue;
        }
        notes.push_back({file, reader.line(key),
                         std::string(key) + ": \"" + written + "\": nib denies " + name +
                             " whole, not in part"});
      }
      add_once(list.names, std::move(name));
    }
  }
  return list;
}

std::optional<core::ThinkingLevel> read_thinking(FieldReader& reader) {
  if (const std::optional<std::string> value = reader.text("thinking")) {
    if (auto level = core::parse_thinking_level(*value)) return level;
    reader.fail("thinking", "must be off, low, medium or high, got \"" + *value + "\"");
    return std::nullopt;
  }
  // Claude Code's effort levels; nib's highest thinking level stands for its two above high.
  const std::optional<std::string> effort = reader.text("effort");
  if (!effort) return std::nullopt;
  if (*effort == "xhigh" || *effort == "max") return core::ThinkingLevel::kHigh;
  if (*effort != "off") {
    if (auto level = core::parse_thinking_level(*effort)) return level;
  }
  reader.fail("effort", "must be low, medium, high, xhigh or max, got \"" + *effort + "\"");
  return std::nullopt;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string comma_joined(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ", ") + name;
  return joined;
}

// A Claude Code tool nib does not have, with the agents whose `tools` name it.
struct LackedTool {
  std::string tool;
  std::vector<std::string> agents;
};

}  // namespace

std::vector<AgentDefinition> builtin_agents() {
  AgentDefinition explore;
  explore.name = "explore";
  explore.description =
      "Fast read-only agent for finding files, searching code and answering questions about "
      "the codebase. It cannot change anything; say how thorough it should be.";
  explore.system_prompt =
      "You are an exploration subagent of nib, a coding agent. Answer the task you are given "
      "by searching and reading the code with your read-only tools; you cannot change files. "
      "Search broadly first, then read what matters. Your final reply is all the agent that "
      "started you sees: answer directly and name the files and line numbers it needs.";
  explore.tools = std::vector<std::string>{"read", "grep", "find", "ls"};

  AgentDefinition general;
  general.name = "general";
  general.description =
      "General-purpose agent for multi-step tasks: researching a question across the codebase, "
      "or making and checking a self-contained change. It has every tool but task.";
  general.system_prompt =
      "You are a subagent of nib, a coding agent. Do the task you are given completely with "
      "the tools you have, and check your work. Your final reply is all the agent that started "
      "you sees: report concisely what you did and found, with the files and line numbers "
      "that matter, and anything you could not do.";
  return {std::move(explore), std::move(general)};
}

AgentParse parse_agent_definition(const MarkdownDocument& document,
                                  const std::filesystem::path& file, Origin origin) {
  const auto read = [&](FieldReader& reader, AgentDefinition& agent, std::vector<Problem>& notes) {
    if (const std::optional<std::string> name =
            reader.required_text("name", "add a line such as name: reviewer")) {
      if (is_valid_name(*name)) {
        agent.name = *name;
      } else {
        reader.fail("name",
                    "\"" + *name + "\" is not a valid agent name; " + std::string(kNameRule));
      }
    }
    agent.description = reader
                            .required_text("description",
                                           "say when the agent should be used, since the model "
                                           "chooses agents by their descriptions")
                            .value_or("");
    if (std::optional<ToolList> tools = read_tool_list(reader, "tools", false, file, notes)) {
      agent.tools = std::move(tools->names);
      agent.task_agents = std::move(tools->task_agents);
      agent.tools_line = reader.line("tools");
    }
    if (std::optional<ToolList> denied =
            read_tool_list(reader, "disallowedTools", true, file, notes)) {
      agent.disallowed_tools = std::move(denied->names);
      agent.disallowed_tools_line = reader.line("disallowedTools");
    }
    agent.model = read_model(reader);
    if (const std::optional<std::vector<std::string>> skills = reader.text_or_list("skills")) {
      for (const std::string& item : *skills) {
        for (ToolEntry& entry : split_tool_list(item)) {
          add_once(agent.skills, std::move(entry.name));
        }
      }
    }
    agent.thinking = read_thinking(reader);
    agent.max_turns = reader.positive_count("maxTurns");
    agent.system_prompt = trimmed_body(document.body);
  };
  return parse_definition<AgentDefinition>(document, file, origin,
                                           "an agent definition starts with a \"---\" line, "
                                           "name: and description: lines, and another \"---\" line",
                                           read);
}

std::vector<Problem> validate_agent_tools(const AgentDefinition& definition,
                                          const std::vector<std::string>& available) {
  const std::string listed = comma_joined(available);
  std::vector<Problem> problems;
  const auto check = [&](const std::vector<std::string>& names, std::string_view key, int line) {
    for (const std::string& name : names) {
      if (contains(available, name) || name.starts_with(kMcpToolPrefix) ||
          core::is_claude_tool_nib_lacks(name)) {
        continue;
      }
      std::string message = std::string(key) + ": unknown tool \"" + name + "\"";
      if (const std::string suggestion = util::closest_name(name, available, kSuggestionDistance);
          !suggestion.empty()) {
        message += " (did you mean \"" + suggestion + "\"?)";
      }
      problems.push_back({definition.file, line, message + "; available: " + listed});
    }
  };
  if (definition.tools) check(*definition.tools, "tools", definition.tools_line);
  check(definition.disallowed_tools, "disallowedTools", definition.disallowed_tools_line);
  return problems;
}

std::string claude_tools_nib_lacks_notice(const std::vector<AgentDefinition>& definitions,
                                          bool hosted_web_search) {
  std::vector<LackedTool> lacked;
  for (const AgentDefinition& definition : definitions) {
    if (!definition.tools) continue;
    for (const std::string& tool : *definition.tools) {
      if (!core::is_claude_tool_nib_lacks(tool)) continue;
      if (hosted_web_search && tool == core::kClaudeWebSearchTool) continue;
      auto it = std::find_if(lacked.begin(), lacked.end(),
                             [&](const LackedTool& entry) { return entry.tool == tool; });
      if (it == lacked.end()) it = lacked.insert(lacked.end(), LackedTool{tool, {}});
      it->agents.push_back(definition.name);
    }
  }
  if (lacked.empty()) return {};
  std::vector<std::string> named;
  for (const LackedTool& entry : lacked) {
    named.push_back(entry.tool + " (" + comma_joined(entry.agents) + ")");
  }
  return "agents name Claude Code tools nib does not have, so they run without them: " +
         comma_joined(named);
}

bool agent_searches_web(const AgentDefinition& definition) {
  const auto names = [](const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), core::kClaudeWebSearchTool) != list.end();
  };
  return (!definition.tools || names(*definition.tools)) && !names(definition.disallowed_tools);
}

std::vector<std::string> agent_tool_names(const AgentDefinition& definition,
                                          const std::vector<std::string>& available) {
  // A list naming Edit or Write names apply_patch too (core::list_names_tool): one that grants
  // changing files grants it to a model that edits with patches, and one that takes either away
  // takes that away too.
  std::vector<std::string> names;
  for (const std::string& name : available) {
    const bool allowed =
        definition.tools ? core::list_names_tool(*definition.tools, name) : name != kTaskToolName;
    if (allowed && !core::list_names_tool(definition.disallowed_tools, name)) names.push_back(name);
  }
  return names;
}

}  // namespace nib::extensions
