#pragma once
// Print mode (nib -p): one run of the agent loop for one prompt, output per --output-format.

#include <stop_token>
#include <string>

#include "app/cli.hpp"
#include "app/model_config.hpp"

namespace nib::app {

// Returns the exit status: 0 done, 1 error or turn limit, 2 usage/configuration, 130 aborted.
// `instructions` is the system prompt's section of project instruction files.
int run_print_mode(const CliOptions& options, const ModelConfig& model,
                   const std::string& instructions, std::stop_token stop);

}  // namespace nib::app
