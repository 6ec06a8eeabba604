#pragma once
// What print mode and interactive mode assemble alike before a run: the tool registry the
// flags ask for, and the loop's options for a model. Pure wiring.

#include <memory>
#include <string>

#include "app/cli.hpp"
#include "app/model_config.hpp"
#include "app/print_mode.hpp"
#include "core/agent_loop.hpp"
#include "core/tool_registry.hpp"
#include "ui/print_output.hpp"

namespace nib::app {

// The built-in tools, or those --tools names; nullptr with `error` set when a name is unknown.
std::unique_ptr<core::ToolRegistry> make_tool_registry(const CliOptions& options,
                                                       std::string& error);

// The loop's options for `model`: provider, model, thinking, tools, the system prompt, the
// turn limit and the working directory. Sinks, gate and hooks are the caller's.
core::LoopOptions base_loop_options(const CliOptions& options, const ModelConfig& model,
                                    const RunContext& context, core::Provider& provider,
                                    const core::ToolRegistry& tools);

// Prices usage at the model's prices; empty when they are unknown.
ui::CostFunction cost_function(const ModelConfig& model);

}  // namespace nib::app
