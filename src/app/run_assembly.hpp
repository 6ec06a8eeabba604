#pragma once
// What print mode and interactive mode assemble alike before a run: the tool registry the
// flags ask for, and the loop's options for a model. Pure wiring.

#include <memory>

#include "app/cli.hpp"
#include "app/model_config.hpp"
#include "app/print_mode.hpp"
#include "app/session_setup.hpp"
#include "core/agent_loop.hpp"
#include "core/tool_registry.hpp"
#include "ui/print_output.hpp"
#include "util/result.hpp"

namespace nib::app {

// What every run opens first: its tools (the built-in ones, or those --tools names) and its
// session (new, or the one the options name). A failure when either cannot be had (exit
// status 2).
struct RunResources {
  std::unique_ptr<core::ToolRegistry> tools;
  RunSession session;
};
util::Result<RunResources> open_run(const CliOptions& options, const ModelConfig& model,
                                    const RunContext& context);

// The loop's options for `model`: provider, model, thinking, tools, the system prompt, the
// turn limit and the working directory. Sinks, gate and hooks are the caller's.
core::LoopOptions base_loop_options(const CliOptions& options, const ModelConfig& model,
                                    const RunContext& context, core::Provider& provider,
                                    const core::ToolRegistry& tools);

// Prices usage at the model's prices; empty when they are unknown.
ui::CostFunction cost_function(const ModelConfig& model);

}  // namespace nib::app
