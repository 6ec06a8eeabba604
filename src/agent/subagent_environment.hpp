#pragma once
// What the task tool needs to start subagents: what they inherit from the run that starts them
// (its provider, model, gate, limits), the agents that exist, and the front end's ways to make
// their tools and system prompts. The front end fills `inherited` in before each run (the user
// may change the model between runs) and reads nothing of it while the run goes on.

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/limits.hpp"
#include "core/agent_loop.hpp"
#include "core/tool.hpp"
#include "extensions/agent_catalog.hpp"

namespace nib::agent {

// What a subagent takes from the run that starts it.
struct InheritedRun {
  core::Provider* provider = nullptr;
  std::string provider_name;  // for the subagent's transcript header
  core::ModelInfo model;
  core::ThinkingLevel thinking = core::ThinkingLevel::kOff;
  bool web_search = false;      // the service's hosted search, for agents that may use it
  core::PreToolCheck pre_tool;  // every call of every level goes through the same hooks
  core::Gate gate;              // and the same gate
  core::AfterTool after_tool;   // and the same after-tool hook (PostToolUse)
  // A subagent's before_done (core/agent_loop.hpp): SubagentStop hooks, set by the front end.
  std::function<std::optional<core::UserMessage>(const std::vector<core::Message>&, int,
                                                 std::stop_token)>
      subagent_done;
  int max_turns = 0;                  // unless the definition sets its own; 0: no limit
  core::SpendMeter* spend = nullptr;  // the same meter and cap as every level (optional)
  std::string cache_key;              // the parent's; a subagent's requests extend it
  std::filesystem::path cwd;
  std::chrono::milliseconds abort_grace = core::kAbortGrace;  // of the run the task tool serves
  // The process's one budget, shared by every level (core/slot_pool.hpp, claim_table.hpp).
  core::SlotPool* slots = &core::process_slot_pool();
  core::SlotPool* requests = &core::process_request_pool();
  core::ClaimTable* claims = &core::process_claim_table();
};

// Takes what a subagent inherits from `loop`, the options of the run about to start.
InheritedRun inherit_from(const core::LoopOptions& loop, std::string provider_name);

struct SubagentEnvironment {
  InheritedRun inherited;
  std::shared_ptr<const extensions::AgentCatalog> agents;
  // Fresh instances of every tool a subagent may be given (its own read-before-edit record:
  // what the parent read, the subagent has not seen), without task.
  std::function<std::vector<core::ToolPtr>()> make_tools;
  // The system prompt of an agent given these tools: its definition's body and nib's account of
  // the environment (working directory, date, project instructions).
  std::function<std::string(const extensions::AgentDefinition&, const std::vector<core::ToolSpec>&)>
      system_prompt;
  // The model a definition's `model` names among the provider's, when it has it; nullopt (or
  // no function): the parent's.
  std::function<std::optional<core::ModelInfo>(const std::string& provider_name,
                                               const std::string& model_name)>
      resolve_model;
  // Where each subagent's transcript is written (a session file of its own, named after the
  // task call); empty: not written (--no-session).
  std::filesystem::path transcript_dir;
  int max_depth = kDefaultMaxSubagentDepth;
};

}  // namespace nib::agent
