#include "tools/job_report.hpp"

#include <algorithm>

#include "tools/command_report.hpp"
#include "util/text_cut.hpp"
#include "util/utf8.hpp"

namespace nib::tools {
namespace {

// A command is quoted up to this many bytes (whole characters) in lines and notices.
constexpr std::size_t kQuotedCommandBytes = 60;
// A last line is quoted up to this many bytes in a list.
constexpr std::size_t kQuotedLineBytes = 120;

// "5 s", "3 min 12 s".
std::string duration_text(std::chrono::steady_clock::duration elapsed) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(elapsed).count();
  if (seconds < 60) return std::to_string(seconds) + " s";
  return std::to_string(seconds / 60) + " min " + std::to_string(seconds % 60) + " s";
}

}  // namespace

std::string quoted_command(const std::string& command) {
  const std::string_view first_line = std::string_view(command).substr(0, command.find('\n'));
  const std::size_t kept = util::utf8_prefix_length(first_line, kQuotedCommandBytes);
  std::string quoted = "`" + std::string(first_line.substr(0, kept)) + "`";
  // The marker goes outside the quotes, which hold only what the command says.
  if (kept < command.size()) quoted += util::cut_marker(command.size() - kept);
  return quoted;
}

std::string describe_job_state(const process::JobSnapshot& job) {
  const process::JobStatus& status = job.status;
  const auto now = std::chrono::steady_clock::now();
  switch (status.end) {
    case process::JobEnd::kRunning: {
      std::string text = "running for " + duration_text(now - status.started);
      if (status.shell_exited) {
        text += ": its shell exited (" +
                (status.signal != 0 ? "killed by " + describe_signal(status.signal)
                                    : "status " + std::to_string(status.exit_code)) +
                "), but processes it started still run (a server or daemon left in the "
                "background), so the job is not finished";
      }
      return text;
    }
    case process::JobEnd::kExited:
      return "exited with status " + std::to_string(status.exit_code) + " after " +
             duration_text(status.ended - status.started);
    case process::JobEnd::kSignaled:
      return "killed by signal " + describe_signal(status.signal) + " after " +
             duration_text(status.ended - status.started);
    case process::JobEnd::kKilled:
      return "killed by nib (" + status.killed_by + ") after " +
             duration_text(status.ended - status.started) + ", with every process it had started";
    case process::JobEnd::kNoStatus:
      return "ended after " + duration_text(status.ended - status.started) +
             " (its exit status could not be collected)";
  }
  return "unknown";
}

std::string describe_job_line(const process::JobSnapshot& job) {
  std::string line = "job " + std::to_string(job.id) + " (" + quoted_command(job.command) +
                     "), pid " + std::to_string(job.pid) + ": " + describe_job_state(job);
  if (!job.last_lines.empty())
    line += "; last line: " + util::cut_text(job.last_lines.back(), kQuotedLineBytes);
  return line;
}

std::string job_end_line(const process::JobSnapshot& job) {
  return "Background job " + std::to_string(job.id) + " (" + quoted_command(job.command) +
         ") has finished: " + describe_job_state(job) + ".";
}

std::string job_end_notice(const process::JobSnapshot& job) {
  std::string text = "[nib] " + job_end_line(job);
  if (job.last_lines.empty()) {
    text += " It printed nothing.";
  } else {
    text += " Its last lines:\n";
    for (const std::string& line : job.last_lines) text += line + "\n";
    text += "Its whole output: " + job.log.string() + " (read it with offset and limit).";
  }
  return text;
}

std::string describe_job_list(const std::vector<process::JobSnapshot>& jobs) {
  if (jobs.empty()) return "No background jobs.";
  std::string text;
  for (const process::JobSnapshot& job : jobs) text += "- " + describe_job_line(job) + "\n";
  text.pop_back();
  return text;
}

}  // namespace nib::tools
