// The background jobs of InteractiveSession (see interactive_session.hpp): /jobs, the notice of
// a job's end, and Ctrl+B, which moves the running bash calls into the background.

#include "app/interactive_session.hpp"
#include "tools/job_report.hpp"
#include "tools/limits.hpp"
#include "util/ascii.hpp"

namespace nib::app {

void InteractiveSession::show_jobs(const std::string& argument) {
  if (!context_.jobs) return notice("Background jobs are not available here.");
  if (argument.empty()) {
    return notice(tools::describe_job_list(context_.jobs->list()) +
                  "\n/jobs log N shows a job's last lines, /jobs kill N ends it.");
  }
  const std::size_t space = argument.find(' ');
  const std::string action = argument.substr(0, space);
  const std::string number = space == std::string::npos ? "" : argument.substr(space + 1);
  const int id = number.find_first_not_of("0123456789") == std::string::npos && !number.empty() &&
                         number.size() < 9
                     ? std::stoi(number)
                     : 0;
  const auto job = id > 0 ? context_.jobs->find(id) : nullptr;
  if ((action != "log" && action != "kill") || !job) {
    return notice("Use /jobs, /jobs log N or /jobs kill N with the number of a job /jobs lists.",
                  ui::NoticeKind::kWarning);
  }
  if (action == "kill") {
    // Not awaited: the screen stays live; the footer, a notice and the model's notice follow
    // its end.
    job->kill("the user (/jobs kill)", std::chrono::milliseconds(0));
    return notice("Ending job " + std::to_string(id) + " and every process it started.");
  }
  const process::JobSnapshot snapshot = job->snapshot();
  std::string text = tools::describe_job_line(snapshot) + "\nLog: " + snapshot.log.string();
  for (const std::string& line : snapshot.last_lines) text += "\n  " + line;
  notice(std::move(text));
}

void InteractiveSession::announce_finished_jobs() {
  for (const process::JobSnapshot& job : context_.jobs->list()) {
    if (job.status.end != process::JobEnd::kRunning && announced_job_ends_.insert(job.id).second) {
      const bool failed = job.status.end == process::JobEnd::kSignaled ||
                          (job.status.end == process::JobEnd::kExited && job.status.exit_code != 0);
      notice(tools::job_end_line(job), failed ? ui::NoticeKind::kWarning : ui::NoticeKind::kInfo);
    }
  }
}

void InteractiveSession::move_commands_to_background() {
  const process::MoveOutcome moved = context_.jobs->move_foreground_to_background();
  const auto calls = [](std::size_t count) {
    return count == 1 ? std::string("the running bash call")
                      : "the " + std::to_string(count) + " running bash calls";
  };
  if (moved.moving > 0) {
    notice("Moving " + calls(moved.moving) +
           " into the background: the model gets the job's number at once, and /jobs lists it.");
  }
  if (moved.refused > 0) {
    std::string text = calls(moved.refused) + (moved.refused == 1 ? " stays" : " stay") +
                       " in the foreground: " + std::to_string(process::kMaxRunningJobs) +
                       " background jobs run, the most nib runs at once. End one with /jobs kill "
                       "N, then press Ctrl+B again.";
    notice(util::ascii_capitalized(std::move(text)), ui::NoticeKind::kWarning);
  }
}

}  // namespace nib::app
