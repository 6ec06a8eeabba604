#include "app/interactive_mode.hpp"

#include <unistd.h>

#include <iostream>

#include "app/interactive_session.hpp"
#include "app/print_mode.hpp"
#include "app/run_assembly.hpp"

namespace nib::app {

int run_interactive_mode(const CliOptions& options, const ModelConfig& model,
                         const RunContext& context, const Configuration& configuration,
                         std::stop_token stop) {
  if (isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0) {
    std::cerr << "nib: stdin or stdout is not a terminal, so nib answers in print mode (as with "
                 "-p).\n";
    return run_print_mode(options, model, context, stop);
  }
  auto opened = open_run(options, model, context);
  if (!opened.ok()) {
    std::cerr << "nib: " << opened.error() << '\n';
    return 2;
  }
  for (const std::string& notice : opened.value().mcp_notices)
    std::cerr << "nib: " << notice << '\n';
  InteractiveSession interactive(options, model, context, configuration, std::move(opened.value()),
                                 stop);
  return interactive.run();
}

}  // namespace nib::app
