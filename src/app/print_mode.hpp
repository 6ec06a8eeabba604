#pragma once
// Print mode (nib -p): one run of the agent loop for one prompt, output per --output-format.

#include <filesystem>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/environment.hpp"
#include "app/extension_setup.hpp"
#include "app/model_config.hpp"
#include "app/run_guard.hpp"
#include "app/session_setup.hpp"
#include "core/pending_notices.hpp"
#include "process/job_table.hpp"
#include "session/compaction.hpp"

namespace nib::app {

// What a run needs besides the flags and the model.
struct RunContext {
  EnvLookup env;
  std::filesystem::path cwd;
  std::string instructions;  // the system prompt's section of project instruction files
  session::CompactionSettings compaction;
  std::optional<ExistingSession> existing;  // the session to continue (load_named_session)
  int max_turns = 0;  // model requests per run (--max-turns, else maxTurns); 0: no limit
  std::vector<std::string> withheld_environment;  // kept from commands (command_environment.hpp)
  std::filesystem::path user_config_dir;          // ~/.config/nib: the user's agents (and the like)
  const Configuration* configuration = nullptr;   // outlives every run (main owns it)
  // Whether each call may run and how commands are confined: the rules, the mode, the sandbox
  // and the hooks, one for every front end (run_guard.hpp); outlives every run (main owns it).
  RunGuard* guard = nullptr;
  // The process's background jobs and the notices for the model's next turn (main owns both;
  // null where a caller has none).
  std::shared_ptr<process::JobTable> jobs;
  core::PendingNotices* notices = nullptr;
  UserExtensions extensions;  // skills and custom commands
};

// Runs the prompt in the session the flags name (a new one by default), recording every
// message in its file. Returns the exit status: 0 done, 1 error or turn limit, 2 usage or
// configuration (including a session that cannot be opened), 130 aborted.
int run_print_mode(const CliOptions& options, const ModelConfig& model, const RunContext& context,
                   std::stop_token stop);

}  // namespace nib::app
