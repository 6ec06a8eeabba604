#include "app/main.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stop_token>

#include "agent/level_budget.hpp"
#include "app/acp_agent.hpp"
#include "app/cli.hpp"
#include "app/command_environment.hpp"
#include "app/hooks_command.hpp"
#include "app/interactive_mode.hpp"
#include "app/list_models.hpp"
#include "app/mcp_command.hpp"
#include "app/model_config.hpp"
#include "app/permissions_command.hpp"
#include "app/plugin_setup.hpp"
#include "app/print_mode.hpp"
#include "app/process_hooks.hpp"
#include "app/rewind_command.hpp"
#include "app/run_guard.hpp"
#include "app/run_setup.hpp"
#include "app/sdk_mode.hpp"
#include "app/session_list.hpp"
#include "app/session_setup.hpp"
#include "app/settings.hpp"
#include "app/signals.hpp"
#include "app/tool_command.hpp"
#include "app/tree_checkpoints.hpp"
#include "core/slot_pool.hpp"
#include "net/curl_library.hpp"
#include "process/command_registry.hpp"
#include "process/process_reaper.hpp"
#include "util/environment.hpp"
#include "util/user_places.hpp"

namespace nib::app {
namespace {

// Kills every process nib's tools started and takes their entries out of the command registry,
// which would otherwise make the next nib look for them.
void end_all_commands() {
  process::kill_all_descendants();
  process::forget_all_commands();
}

// Ends nib at once, taking every process its tools started with it, after the run's session
// has recorded that its running tool calls were interrupted.
[[noreturn]] void exit_now(int status) {
  run_process_hook(ProcessHook::kForcedQuit);
  end_all_commands();
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(status);
}

// The guard of the run (run_guard.hpp), one for every front end; `guard` keeps it for main() to
// release after every command has ended (the sandbox's placeholders must outlive the commands
// they protect from, sandbox/protected_paths.hpp).
// `options`: nib's flags, those of the run or those given before `subcommand`. `places`: where
// the user's things are, as main worked them out.
int dispatch(const CliOptions& options, const Subcommand& subcommand,
             const util::UserPlaces& places, std::stop_source& stop,
             std::unique_ptr<RunGuard>& guard, std::unique_ptr<RunSetup>& setup) {
  std::error_code no_cwd;
  const std::filesystem::path cwd = std::filesystem::current_path(no_cwd);
  if (no_cwd) {
    std::cerr << "nib: the working directory is gone (deleted or moved away: " << no_cwd.message()
              << "); cd to an existing directory and start nib again\n";
    return 2;
  }
  const util::EnvLookup env = util::process_environment();
  const ConfigDirectories directories = config_directories(places, cwd);
  // Every settings file; a failure is printed here and the caller exits with status 2.
  const auto load = [&directories]() -> std::optional<Configuration> {
    auto loaded = load_configuration(directories);
    if (!loaded.ok()) {
      std::cerr << loaded.error() << '\n';
      return std::nullopt;
    }
    return std::move(loaded.value());
  };
  if (std::holds_alternative<AcpArgs>(subcommand)) {
    // Logs go to stderr only: stdout carries the protocol.
    return run_acp_agent(options, places, cwd, STDIN_FILENO, STDOUT_FILENO, std::cerr,
                         stop.get_token());
  }
  if (std::holds_alternative<SessionsArgs>(subcommand)) {
    return list_sessions(places, cwd, std::cout, std::cerr);
  }
  if (const auto* rewind = std::get_if<RewindArgs>(&subcommand)) {
    const auto loaded = load();
    if (!loaded) return 2;
    return run_rewind_command(*rewind, places, cwd, checkpoint_store_cap(loaded->settings),
                              std::cout, std::cerr);
  }
  if (std::holds_alternative<PluginsArgs>(subcommand)) {
    const auto loaded = load();
    if (!loaded) return 2;
    return run_plugins_command(*loaded->plugins, std::cout, std::cerr);
  }
  if (const auto* permissions = std::get_if<PermissionsArgs>(&subcommand)) {
    return run_permissions_command(*permissions, options, places, cwd, std::cout, std::cerr);
  }
  // Builds the guard for a front end; false (the reason printed) when it cannot be built.
  const auto guarded = [&](const CliOptions& flags, const Configuration& configuration) {
    auto made = make_guard(flags, configuration, places, cwd, withheld_environment(configuration));
    if (!made.ok()) {
      std::cerr << made.error() << '\n';
      return false;
    }
    guard = std::move(made.value());
    return true;
  };
  if (const auto* tool = std::get_if<ToolArgs>(&subcommand)) {
    const auto loaded = load();
    if (!loaded || !guarded(options, *loaded)) return 2;
    for (const std::string& warning : guard->warnings()) std::cerr << "nib: " << warning << '\n';
    return run_tool_command(*tool, *guard, stop.get_token(), std::cout, std::cerr);
  }
  if (const auto* hooks_test = std::get_if<HooksTestArgs>(&subcommand)) {
    const auto loaded = load();
    if (!loaded) return 2;
    return run_hooks_test(*hooks_test, *loaded, cwd, stop.get_token(), std::cout, std::cerr);
  }
  if (const auto* mcp = std::get_if<McpArgs>(&subcommand)) {
    const auto loaded = load();
    if (!loaded) return 2;
    RunContext context{.env = env,
                       .places = places,
                       .cwd = cwd,
                       .withheld_environment = withheld_environment(*loaded),
                       .user_config_dir = directories.global,
                       .configuration = &*loaded};
    // `nib mcp serve` is a front end like any other: the same guard as `nib -p`.
    const McpGuardFactory make = [&](const CliOptions& flags) -> RunGuard* {
      return guarded(flags, *loaded) ? guard.get() : nullptr;
    };
    return run_mcp_command(*mcp, options, context, make, stop.get_token(), std::cout, std::cerr);
  }
  auto loaded = load();
  if (!loaded) return 2;
  const Settings& settings = loaded->settings;
  if (settings.concurrent_tools) core::process_slot_pool().resize(*settings.concurrent_tools);
  if (settings.concurrent_requests) {
    core::process_request_pool().resize(*settings.concurrent_requests);
  }
  if (settings.concurrent_subagents) {
    agent::set_subagents_per_level(static_cast<std::size_t>(*settings.concurrent_subagents));
  }
  if (options.list_models) {
    list_models(*loaded, env, std::cout);
    return 0;
  }
  // Read once, before the model is chosen: a resumed session names the model it last used.
  auto existing = load_named_session(options, places, cwd);
  if (!existing.ok()) {
    std::cerr << "nib: " << existing.error() << '\n';
    return 2;
  }
  auto opened = open_run_setup(options, places, cwd, std::move(*loaded),
                               std::move(existing.value()), std::cerr);
  if (!opened.ok()) {
    std::cerr << opened.error() << '\n';
    return 2;
  }
  setup = std::move(opened.value());
  const ModelConfig& model = setup->model;
  const RunContext& context = setup->context;
  if (options.input_stream_json) {
    if (options.output_format != OutputFormat::kStreamJson) {
      std::cerr << "nib: --input-format stream-json needs --output-format stream-json\n";
      return 2;
    }
    return run_sdk_mode(options, model, context, stop.get_token());
  }
  if (options.print) return run_print_mode(options, model, context, stop.get_token());
  return run_interactive_mode(options, model, context, setup->configuration, stop.get_token());
}

}  // namespace

int main(int argc, char** argv) {
  // The command line first: --version, --help and bad usage are answered before anything starts
  // (no sweep, no signal thread), and a run that will not happen costs nothing more.
  ParseOutcome parsed = parse_command_line(argc, argv);
  if (!parsed.options) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << '\n';
    return parsed.exit_code;
  }
  if (parsed.options->version) {
    std::cout << "nib " << NIB_VERSION << '\n';
    return 0;
  }
  std::optional<net::CurlPreload> curl_preload;  // waited for before main returns
  if (std::holds_alternative<std::monostate>(parsed.subcommand)) {
    // A run: its first request will need libcurl, opened meanwhile on a thread of its own.
    curl_preload.emplace();
  }
  // Where the user's things are, worked out once: passed to what main wires up, and set
  // process-wide for what reads them deep inside a call or a command (util/user_places.hpp).
  const util::UserPlaces places = util::user_places(util::process_environment());
  util::set_process_places(places);
  process::become_subreaper();
  // Before anything else (a resumed session asks what was ended): commands of nibs that died
  // without cleaning up are ended now.
  process::end_commands_of_dead_nibs();
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
      .on_resize = [] { run_process_hook(ProcessHook::kTerminalResized); },
  });
  int status = 1;
  std::unique_ptr<RunGuard> guard;
  std::unique_ptr<RunSetup> setup;  // a run's guard and jobs, released like `guard`
  try {
    status = dispatch(*parsed.options, parsed.subcommand, places, stop, guard, setup);
  } catch (const std::exception& error) {
    // Failures are values everywhere below; anything that still escapes ends nib with one
    // clear line rather than std::terminate's abort.
    std::cerr << "nib: internal error: " << error.what() << '\n';
  } catch (...) {
    std::cerr << "nib: internal error: an unknown exception\n";
  }
  end_all_commands();
  // After the commands: the sandbox's placeholders protected them until now.
  setup.reset();
  guard.reset();
  return status;
}

}  // namespace nib::app
