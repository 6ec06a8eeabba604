#pragma once
// Interactive mode (`nib` on a terminal): the conversation drawn inline, an input editor,
// slash commands, steering and approvals. Falls back to print mode, saying so, when stdin or
// stdout is not a terminal.

#include <stop_token>

#include "app/cli.hpp"
#include "app/model_config.hpp"
#include "app/run_context.hpp"
#include "app/settings.hpp"

namespace nib::app {

// Runs the session until the user quits or `stop` is requested (SIGINT from outside). Returns
// the exit status: 0, or 2 when the session cannot start (its error on stderr).
int run_interactive_mode(const CliOptions& options, const ModelConfig& model,
                         const RunContext& context, const Configuration& configuration,
                         std::stop_token stop);

}  // namespace nib::app
