#pragma once
// Everything the runs in one working tree share, built once per tree: its settings, the model
// they run, the guard (rules, mode, sandbox, hooks), the background jobs and the notices for the
// model, and the RunContext that hands them to the run assembly. main builds one for the
// directory nib started in; `nib acp` builds one for each session's working directory, so that
// every front end opens its runs from the same parts.

#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>

#include "app/cli.hpp"
#include "app/model_config.hpp"
#include "app/run_context.hpp"
#include "app/run_guard.hpp"
#include "app/session_setup.hpp"
#include "app/settings.hpp"
#include "core/pending_notices.hpp"
#include "util/result.hpp"
#include "util/user_places.hpp"

namespace nib::app {

// Not movable: the context points at the members before it.
struct RunSetup {
  RunSetup() = default;
  RunSetup(const RunSetup&) = delete;
  RunSetup& operator=(const RunSetup&) = delete;

  Configuration configuration;
  ModelConfig model;
  // Outlives the context's jobs (declared after it, destroyed before it): the sandbox's
  // placeholders must outlive the commands they protect from (sandbox/protected_paths.hpp).
  std::unique_ptr<RunGuard> guard;
  core::PendingNotices notices;
  std::unique_ptr<core::SpendMeter> spend;  // the context's
  RunContext context;
};

// The settings of `cwd` (config_directories), as load_configuration reads them.
util::Result<Configuration> load_tree_configuration(const util::UserPlaces& places,
                                                    const std::filesystem::path& cwd);

// The runs of `cwd` with `configuration`, continuing `existing` (load_named_session) when set:
// its model unless the options or the environment name one. Warnings (a session's unreadable
// lines, the web search notice, the sandbox being off) go to `err`; a failure names its cause
// (exit status 2).
util::Result<std::unique_ptr<RunSetup>> open_run_setup(
    const CliOptions& options, const util::UserPlaces& places, const std::filesystem::path& cwd,
    Configuration configuration, std::optional<ExistingSession> existing, std::ostream& err);

}  // namespace nib::app
