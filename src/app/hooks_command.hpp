#pragma once
// `nib hooks test EVENT [--input FILE]`: runs the hooks configured for EVENT (PreToolUse, Stop,
// ...) on a sample input — FILE's JSON object, or a built-in sample of the event — exactly as a
// run would, and prints each hook's command, how it ended, its decision, its reason and how long
// it took, then the combined decision. For trying a hook out before trusting a run to it.

#include <filesystem>
#include <ostream>
#include <stop_token>

#include "app/cli.hpp"
#include "app/settings.hpp"

namespace nib::app {

// Returns the exit status: 0 when the hooks ran (whatever they decided), 2 for an unknown
// event, an unreadable input or a configuration error.
int run_hooks_test(const HooksTestArgs& args, const Configuration& configuration,
                   const std::filesystem::path& cwd, std::stop_token stop, std::ostream& out,
                   std::ostream& err);

}  // namespace nib::app
