#include "app/main.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stop_token>

#include "app/cli.hpp"
#include "app/list_models.hpp"
#include "app/model_config.hpp"
#include "app/print_mode.hpp"
#include "app/project_instructions.hpp"
#include "app/settings.hpp"
#include "app/signals.hpp"
#include "app/tool_command.hpp"
#include "tools/process_reaper.hpp"

namespace nib::app {
namespace {

// Ends nib at once, taking every process its tools started with it.
[[noreturn]] void exit_now(int status) {
  tools::kill_all_descendants();
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(status);
}

int dispatch(int argc, char** argv, std::stop_source& stop) {
  if (argc >= 2 && std::string_view(argv[1]) == "tool") {
    return run_tool_command(std::vector<std::string>(argv + 2, argv + argc), stop.get_token(),
                            std::cout, std::cerr);
  }
  const auto parsed = parse_command_line(argc, argv);
  if (!parsed.options) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << '\n';
    return parsed.exit_code;
  }
  const CliOptions& options = *parsed.options;
  if (options.version) {
    std::cout << "nib " << NIB_VERSION << '\n';
    return 0;
  }
  if (!options.print && options.prompt.empty() && !options.list_models) {
    std::cerr << "nib: the interactive mode is not available yet; use nib -p \"PROMPT\".\n";
    return 2;
  }
  const EnvLookup env = process_environment();
  const std::filesystem::path cwd = std::filesystem::current_path();
  const ConfigDirectories directories = config_directories(env, cwd);
  const auto loaded = load_configuration(directories);
  if (!loaded.configuration) {
    std::cerr << loaded.error << '\n';
    return 2;
  }
  if (options.list_models) {
    list_models(*loaded.configuration, env, std::cout);
    return 0;
  }
  const auto model = resolve_model_config(options, env, *loaded.configuration);
  if (!model.config) {
    std::cerr << model.error << '\n';
    return 2;
  }
  const std::string instructions =
      instructions_section(find_instruction_files(directories.global, cwd));
  return run_print_mode(options, *model.config, instructions, stop.get_token());
}

}  // namespace

int main(int argc, char** argv) {
  tools::become_subreaper();
  std::stop_source stop;
  std::atomic<int> interrupts = 0;
  SignalWatcher watcher({
      .on_interrupt =
          [&] {
            // The first Ctrl-C aborts the run gracefully; a second one does not wait.
            if (interrupts++ > 0) exit_now(130);
            stop.request_stop();
          },
      .on_terminate =
          [&](int signal_number) {
            stop.request_stop();
            exit_now(128 + signal_number);
          },
  });
  const int status = dispatch(argc, argv, stop);
  tools::kill_all_descendants();
  return status;
}

}  // namespace nib::app
