#pragma once
// `nib tool NAME 'JSON'`: one tool call through the same prepare → hooks → gate → run path the
// loop uses, guarded like every front end (run_guard.hpp: the rules, the mode from the flags or
// the settings, --ask, the sandbox unless --no-sandbox, the hooks), in the current directory,
// with nobody to ask: a call the mode or a rule would ask about is refused, naming the rule that
// would allow it. The model-facing content goes to `out` and nothing else.

#include <ostream>
#include <stop_token>

#include "app/cli.hpp"
#include "app/run_guard.hpp"

namespace nib::app {

// Returns the exit status: 0 success, 1 an error result (a refusal included), 2 when the tools
// cannot be set up, 130 aborted through `stop`.
int run_tool_command(const ToolArgs& args, RunGuard& guard, std::stop_token stop, std::ostream& out,
                     std::ostream& err);

}  // namespace nib::app
