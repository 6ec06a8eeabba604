#pragma once
// Print mode (nib -p): one run of the agent loop for one prompt, output per --output-format.

#include <stop_token>

#include "app/cli.hpp"
#include "app/model_config.hpp"
#include "app/run_context.hpp"

namespace nib::app {

// The exit status of a run the spending cap (--max-budget-usd) stopped: not a failure, since
// the session holds everything and can go on, and distinct from one so scripts can tell.
inline constexpr int kSpendingCapExitStatus = 3;

// Runs the prompt in the session the flags name (a new one by default), recording every
// message in its file. Returns the exit status: 0 done, 1 error or turn limit, 2 usage or
// configuration (including a session that cannot be opened), kSpendingCapExitStatus when the
// spending cap stopped the run, 130 aborted.
int run_print_mode(const CliOptions& options, const ModelConfig& model, const RunContext& context,
                   std::stop_token stop);

}  // namespace nib::app
