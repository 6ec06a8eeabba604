#pragma once
// The `bash` tool: runs a shell command non-interactively and reports its exit status and
// output (command_runner.hpp runs it, command_report.hpp words the result). Not
// concurrency_safe: commands may change files other calls read. Thread-safe: execute() keeps
// no state between calls.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/tool.hpp"
#include "process/command_launcher.hpp"
#include "process/job_table.hpp"
#include "process/temp_log.hpp"

namespace nib::tools {

struct BashToolOptions {
  // Creates the log for a long stream; `prefix` is "bash-stdout" or "bash-stderr".
  process::LogCreator create_log = process::create_private_log;
  // Variables of nib's environment that commands do not get (secrets such as API keys, which a
  // command's output would otherwise carry into the conversation).
  std::vector<std::string> withheld_environment;
  // Confines every command (the sandbox, command_launcher.hpp); none: commands run with nib's
  // rights and the "network" and "unsandboxed" arguments change nothing. A call with
  // "unsandboxed": true, or a command the launcher says runs outside, is run without it; one
  // with "network": true is confined with the host's network. Whether such a call may run at
  // all is the gate's decision, before execute().
  std::shared_ptr<const process::CommandLauncher> launcher;
  // The background jobs (job_table.hpp): with a table, bash offers run_in_background; without
  // one (`nib tool`), it does not.
  std::shared_ptr<process::JobTable> jobs;
};

// The bash tool. Processes it starts are killed on timeout and abort; background ones that
// outlive their command are killed by kill_all_descendants() (process_reaper.hpp), which the
// application calls when it exits, after become_subreaper() at start-up.
core::ToolPtr make_bash_tool(BashToolOptions options = {});

}  // namespace nib::tools
