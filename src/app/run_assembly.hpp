#pragma once
// What print mode and interactive mode assemble alike before a run: the tool registry the
// flags ask for, and the loop's options for a model. Pure wiring.

#include <memory>

#include "agent/subagent_environment.hpp"
#include "app/cli.hpp"
#include "app/compaction_hooks.hpp"
#include "app/hook_setup.hpp"
#include "app/model_config.hpp"
#include "app/run_context.hpp"
#include "app/session_setup.hpp"
#include "core/agent_loop.hpp"
#include "core/tool_registry.hpp"
#include "hooks/hook_set.hpp"
#include "mcp/server_set.hpp"
#include "permissions/approval_policy.hpp"
#include "tools/todo_write.hpp"
#include "ui/print_output.hpp"
#include "util/result.hpp"

namespace nib::app {

// What every run opens first: its tools (the built-in ones, task, and skill when there are
// skills the model may load; or those --tools names), bash confined as the guard says
// (context.guard), what the subagents of task get, the plan todo_write keeps (restored from a
// continued session) and its session (new, or the one the options name). A failure when any
// cannot be had (exit status 2).
struct RunResources {
  std::unique_ptr<core::ToolRegistry> tools;
  // Before each run, lend_run_to_subagents (subagent_setup.hpp) with the run's loop options.
  std::shared_ptr<agent::SubagentEnvironment> subagents;
  RunSession session;
  std::shared_ptr<tools::PlanBoard> plan;  // the session's plan, which front ends draw
  // Of agent definitions, skills and commands, for the start-up report: "an agent definition
  // was left out or changed: <file>:<line>: <what>" and the like.
  std::vector<std::string> problems;
  // The guard's hooks: the front end points their session facts at `session` as it changes
  // (RunGuard::follow_session).
  std::shared_ptr<hooks::HookSet> hooks;
  // The MCP servers, started in the background; their tools join `tools` as they become ready.
  // Last, so it ends (and stops the servers) before the registry it adds to.
  std::unique_ptr<mcp::ServerSet> mcp;
  std::vector<std::string> mcp_notices;         // servers left out, and why (mcp_setup.hpp)
  std::vector<mcp::ServerConfig> mcp_awaiting;  // project servers to ask about (mcp_setup.hpp)
};
util::Result<RunResources> open_run(const CliOptions& options, const ModelConfig& model,
                                    const RunContext& context);

// The loop's options for `model`: provider, model, thinking, tools, the system prompt (with
// the skills when the skill tool is among `tools`), the turn limit and the working directory.
// Sinks, gate and hooks are the caller's.
core::LoopOptions base_loop_options(const CliOptions& options, const ModelConfig& model,
                                    const RunContext& context, core::Provider& provider,
                                    const core::ToolRegistry& tools);

// What a front end brings to a run: how it shows what happens and how it asks. Everything else
// (the gate in its one order, compaction and its hooks, what subagents inherit, the Stop hooks)
// assemble_loop wires alike for every front end, so that none builds a gate of its own.
struct FrontEndWiring {
  core::EventSink show;      // each event, after the session has recorded it
  permissions::AskUser ask;  // a person or a client; empty: calls that need asking are refused
  permissions::RuleSaver save_rules;  // where "always" answers go; empty: this run only
  HookNotice notice;                  // the hooks' and compaction's lines, from the run's thread
  // What the custom command that started the run allows by its allowed-tools (PromptInput).
  std::shared_ptr<const permissions::RuleSet> grants;
  std::function<std::vector<core::UserMessage>()> take_steering;  // optional (steering)
};

// The parts of an opened run (RunResources) that a front end keeps between its runs.
struct RunParts {
  RunSession& session;
  agent::SubagentEnvironment& subagents;
  std::shared_ptr<hooks::HookSet> hooks;
  const core::ToolRegistry& tools;
  std::shared_ptr<tools::PlanBoard> plan;  // carried past each compaction
};

// The loop's options for one run of a front end: base_loop_options, the session recording every
// event before `front_end` shows it, the guard's checks asking through `front_end`, compaction
// with the PreCompact hooks, the run lent to subagents, and the Stop hooks.
core::LoopOptions assemble_loop(const CliOptions& options, const ModelConfig& model,
                                const RunContext& context, core::Provider& provider,
                                const RunParts& parts, FrontEndWiring front_end);

// What a compaction of this run needs (compaction_hooks.hpp): the plan, the working directory,
// the PreCompact hooks, the spending meter and where its notices go.
CompactionWork compaction_work(const RunContext& context, const RunParts& parts,
                               const std::string& trigger, const std::string& instructions,
                               const HookNotice& notice);

// Prices usage at the model's prices; empty when they are unknown.
ui::CostFunction cost_function(const ModelConfig& model);

}  // namespace nib::app
