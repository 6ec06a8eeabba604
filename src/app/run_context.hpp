#pragma once
// What a run needs besides the flags and the model, built once by main and handed to every
// front end (print mode, the interactive mode, `nib mcp`) and to the run assembly. Its own
// header so that what opens a run can take it without depending on print mode.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/extension_setup.hpp"
#include "app/run_guard.hpp"
#include "app/session_setup.hpp"
#include "app/settings.hpp"
#include "app/tree_checkpoints.hpp"
#include "core/pending_notices.hpp"
#include "core/spend_meter.hpp"
#include "process/job_table.hpp"
#include "session/compaction.hpp"
#include "tools/editor_files.hpp"
#include "util/environment.hpp"
#include "util/user_places.hpp"

namespace nib::app {

// What a run needs besides the flags and the model.
struct RunContext {
  util::EnvLookup env;      // the providers' keys, NIB_MODEL and the like
  util::UserPlaces places;  // where the user's things are (main's, util/user_places.hpp)
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
  // MCP servers the front end's client brings ({"mcpServers": {...}}, `nib acp`'s session/new),
  // after the user's own and, like --mcp-config files, approved by being asked for; null: none.
  nlohmann::json client_servers;
  // The client's text of the files it has open, for read, edit and write (`nib acp` when the
  // client offers its files); null: files on disk.
  std::shared_ptr<const tools::EditorFiles> editor_files;
  // The checkpoints of the working tree, for the sessions' rewind (null: none).
  std::shared_ptr<TreeCheckpoints> checkpoints;
  // What the front end's requests cost, against --max-budget-usd or maxBudgetUsd; shared by
  // every run and subagent of the process (main owns it; null where a caller has none).
  core::SpendMeter* spend = nullptr;
};

}  // namespace nib::app
