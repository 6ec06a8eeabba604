#pragma once
// `nib tool NAME 'JSON'`: one tool call through the same prepare → gate → run path the loop
// uses, in the current directory. The model-facing content goes to `out` and nothing else.

#include <memory>
#include <ostream>
#include <stop_token>
#include <string>
#include <vector>

#include "tools/command_launcher.hpp"

namespace nib::app {

// `args` are the words after "tool"; a bash call's command does not get the variables named in
// `withheld_environment` (command_environment.hpp) and runs confined by `command_launcher` (the
// sandbox; null: unconfined). Returns the exit status: 0 success, 1 an
// error result, 2 bad usage, 130 aborted through `stop`.
int run_tool_command(const std::vector<std::string>& args,
                     const std::vector<std::string>& withheld_environment,
                     std::shared_ptr<const tools::CommandLauncher> command_launcher,
                     std::stop_token stop, std::ostream& out, std::ostream& err);

}  // namespace nib::app
