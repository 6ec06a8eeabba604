#pragma once
// The tools that work with background jobs (bash with run_in_background starts them):
// job_output (what a job printed since the last read, its state, an optional wait), job_kill
// (ends a job's whole process tree) and job_list. All share the process's JobTable.
// Thread-safe: the table is; the tools keep no state of their own.

#include <memory>
#include <vector>

#include "core/tool.hpp"
#include "process/job_table.hpp"

namespace nib::tools {

core::ToolPtr make_job_output_tool(std::shared_ptr<process::JobTable> jobs);
core::ToolPtr make_job_kill_tool(std::shared_ptr<process::JobTable> jobs);
core::ToolPtr make_job_list_tool(std::shared_ptr<process::JobTable> jobs);

// All three, in the order the model sees them.
std::vector<core::ToolPtr> make_job_tools(const std::shared_ptr<process::JobTable>& jobs);

enum class JobOrigin {
  kStarted,      // bash started it with run_in_background
  kMovedByUser,  // the user moved a running bash call into the background (Ctrl+B)
};

// What bash returns when `job` has started in the background, or has been moved there (the
// output the call read before the move follows this text in its result).
std::string job_started_text(const process::JobSnapshot& job,
                             JobOrigin origin = JobOrigin::kStarted);

}  // namespace nib::tools
