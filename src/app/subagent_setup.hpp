#pragma once
// Wires the task tool into a run: the agents found for the working directory (problems with
// their definitions, for the start-up report), the tools and system prompts their subagents
// get, the models their definitions name, and where their transcripts go. Wiring only.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "agent/subagent_environment.hpp"
#include "app/model_config.hpp"
#include "app/run_context.hpp"
#include "core/tool.hpp"
#include "tools/builtin.hpp"

namespace nib::app {

struct SubagentSetup {
  std::shared_ptr<agent::SubagentEnvironment> environment;
  core::ToolPtr task_tool;  // for the user's run (depth 0)
};

// The agents found for the working directory, with the task tool that starts them. Their tools
// come next (offer_tools_to_subagents), once the run's own are chosen.
SubagentSetup setup_subagents(const RunContext& context);

// Gives subagents fresh instances of the run's tools named `tool_names` (task is theirs only
// when a definition grants it), and returns the problems of the agent definitions, checked
// against those names ("an agent definition was left out or changed: <file>:<line>: <what is
// wrong>"), for the start-up report, then one line naming the Claude Code tools nib does not
// have that the definitions list, if any do (WebSearch is had when `hosted_web_search`).
std::vector<std::string> offer_tools_to_subagents(agent::SubagentEnvironment& environment,
                                                  const std::vector<std::string>& tool_names,
                                                  const tools::BuiltinOptions& tool_options,
                                                  bool hosted_web_search);

// The transcripts' directory of the session in `session_file`: "<session>/subagents" beside it
// (the file without .jsonl); empty without a session file.
std::filesystem::path subagent_transcript_dir(const std::filesystem::path& session_file);

// Before each run: what its subagents inherit from `loop` (its model, gate, limits), and where
// their transcripts go: beside `session_file` (subagent_transcript_dir), or nowhere.
void lend_run_to_subagents(agent::SubagentEnvironment& environment, const core::LoopOptions& loop,
                           const ModelConfig& model, const std::filesystem::path& session_file);

}  // namespace nib::app
