#pragma once
// How a background job reads to the model and to people: its state in words, one line per job
// for lists, and the notice of its end. Pure functions; thread-safe.

#include <string>
#include <vector>

#include "process/job.hpp"

namespace nib::tools {

// "running", "running: its shell exited with status 0, but processes it started still run",
// "exited with status 1", "killed by signal SIGSEGV (Segmentation fault)", "killed by nib
// (job_kill)", with how long it ran.
std::string describe_job_state(const process::JobSnapshot& job);

// "job 3 (`npm run dev`), pid 1234: running for 5 s; last line: ..." for lists.
std::string describe_job_line(const process::JobSnapshot& job);

// The command as quoted in a line: its first line in backquotes, cut to a few dozen characters
// ("`npm run dev`"; a longer one ends "`… [42 more bytes]", counting its other lines too).
std::string quoted_command(const std::string& command);

// "Background job 3 (`npm test`) has finished: exited with status 0 after 5 s." (the user's
// notice of a finished job, and the first sentence of the model's).
std::string job_end_line(const process::JobSnapshot& job);

// What the model is told at its next turn when job `job` has finished.
std::string job_end_notice(const process::JobSnapshot& job);

// The jobs listed one per line ("- " and describe_job_line), or "No background jobs.".
std::string describe_job_list(const std::vector<process::JobSnapshot>& jobs);

}  // namespace nib::tools
