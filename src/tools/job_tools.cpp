#include "tools/job_tools.hpp"

#include <cmath>

#include "tools/job_report.hpp"
#include "tools/limits.hpp"
#include "util/byte_size.hpp"

namespace nib::tools {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

// job_kill waits this long for a killed tree to be gone: as long as a timeout's kill may take.
constexpr std::chrono::milliseconds kJobKillWait = process::kDrainCap;

json id_parameter() {
  return {{"type", "integer"}, {"minimum", 1}};
}

std::string job_text(int id) {
  return "job " + std::to_string(id);
}

std::string first_line(const core::ToolResult& result) {
  const std::string text = core::content_text(result.content, "");
  return text.substr(0, text.find('\n'));
}

// The job the call names, or the error to return.
std::shared_ptr<process::Job> find_job(const process::JobTable& jobs, const json& args,
                                       std::string& error) {
  const int id = args.value("id", 0);
  auto job = jobs.find(id);
  if (!job) {
    error = "Error: there is no background job " + std::to_string(id) +
            " (it never started, or finished long ago and was forgotten). The jobs nib "
            "knows:\n" +
            describe_job_list(jobs.list());
  }
  return job;
}

std::string job_header(const process::JobSnapshot& job) {
  return "Job " + std::to_string(job.id) + " (" + quoted_command(job.command) + "), pid " +
         std::to_string(job.pid) + ": " + describe_job_state(job) + ".";
}

class JobOutputTool final : public core::Tool {
 public:
  explicit JobOutputTool(std::shared_ptr<process::JobTable> jobs)
      : core::Tool({.name = "job_output",
                    .description = description(),
                    .parameters = parameters(),
                    .concurrency_safe = true,
                    .access = core::AccessKind::kNone}),
        jobs_(std::move(jobs)) {}

  core::ToolOutput execute(const json& args, std::stop_token stop,
                           const core::ToolContext& /*context*/) override {
    std::string error;
    const auto job = find_job(*jobs_, args, error);
    if (!job) return core::ToolOutput::error(error);
    const double wait_s =
        std::min(args.value("wait_s", 0.0), static_cast<double>(kMaxJobWait.count()));
    const auto wait = std::chrono::milliseconds(static_cast<long long>(std::ceil(wait_s * 1000)));
    const process::JobRead read =
        job->read_new(wait, stop, process::kMaxOutputBytes, process::kMaxOutputLines);
    if (read.job.status.end != process::JobEnd::kRunning) jobs_->withdraw_notice(read.job.id);
    return core::ToolOutput{report(read, wait_s)};
  }

  std::string describe_call(const json& args) const override {
    std::string text = job_text(args.value("id", 0));
    const double wait =
        std::min(args.value("wait_s", 0.0), static_cast<double>(kMaxJobWait.count()));
    if (wait > 0) {
      text += ", waiting up to " + util::format_count(static_cast<std::uint64_t>(wait)) + " s";
    }
    return text;
  }
  std::optional<std::string> describe_result(const json&,
                                             const core::ToolResult& result) const override {
    return first_line(result);
  }

 private:
  // How to read a job's output is said where it starts (job_started_text()) and in each
  // result; what remains is when to call this.
  static std::string description() {
    return "Read a background job's new output since the last read, and its state. wait_s (at "
           "most " +
           std::to_string(kMaxJobWait.count()) +
           ") waits for output or the job's end: use it instead of sleep.";
  }
  static json parameters() {
    return {
        {"type", "object"},
        {"properties", {{"id", id_parameter()}, {"wait_s", {{"type", "number"}, {"minimum", 0}}}}},
        {"required", {"id"}}};
  }

  static std::string report(const process::JobRead& read, double wait_s) {
    const process::JobLogSlice& output = read.output;
    std::string text = job_header(read.job) + "\n";
    if (output.text.empty()) {
      text += read.waited_in_vain
                  ? "No new output within " +
                        util::format_count(static_cast<std::uint64_t>(wait_s)) + " s."
                  : "No new output since the last read.";
      text += "\n";
    } else {
      if (output.left_out > 0) {
        text += "[" + util::format_count(output.left_out) +
                " bytes of new output before what follows are left out";
        if (output.shown_from.lines > 0) {
          text += "; the log has them up to line " + util::format_count(output.shown_from.lines);
        }
        text += "]\n";
      }
      text += output.text;
      if (output.text.back() != '\n') text += "\n";
    }
    text += "Log: " + read.job.log.string() + " (" + util::format_count(read.job.output.bytes) +
            " bytes, " + util::format_count(read.job.output.lines) +
            " lines so far; the log keeps the first " + util::format_count(process::kMaxLogBytes) +
            ").";
    return text;
  }

  std::shared_ptr<process::JobTable> jobs_;
};

class JobKillTool final : public core::Tool {
 public:
  explicit JobKillTool(std::shared_ptr<process::JobTable> jobs)
      : core::Tool(
            {"job_kill",
             "End a background job and every process it started.",
             {{"type", "object"}, {"properties", {{"id", id_parameter()}}}, {"required", {"id"}}},
             /*concurrency_safe=*/true}),
        jobs_(std::move(jobs)) {}

  core::ToolOutput execute(const json& args, std::stop_token /*stop*/,
                           const core::ToolContext& /*context*/) override {
    std::string error;
    const auto job = find_job(*jobs_, args, error);
    if (!job) return core::ToolOutput::error(error);
    const bool was_running = !job->finished();
    job->kill("job_kill", kJobKillWait);
    const process::JobSnapshot snapshot = job->snapshot();
    if (snapshot.status.end == process::JobEnd::kRunning) {
      return core::ToolOutput::error(
          "Error: job " + std::to_string(snapshot.id) +
          " was killed, but a process of it has "
          "not ended within " +
          std::to_string(kJobKillWait.count()) +
          " ms (stuck in the kernel, or one nib may not signal); job_list shows when it has.");
    }
    jobs_->withdraw_notice(snapshot.id);
    return core::ToolOutput{(was_running ? "" : "It had already finished. ") +
                            job_header(snapshot) + "\nLog: " + snapshot.log.string()};
  }

  std::string describe_call(const json& args) const override {
    return job_text(args.value("id", 0));
  }
  std::optional<std::string> describe_result(const json&,
                                             const core::ToolResult& result) const override {
    return first_line(result);
  }

 private:
  std::shared_ptr<process::JobTable> jobs_;
};

class JobListTool final : public core::Tool {
 public:
  explicit JobListTool(std::shared_ptr<process::JobTable> jobs)
      : core::Tool({"job_list",
                    "List this session's background jobs: id, command, pid, state and last "
                    "line. At most " +
                        std::to_string(process::kMaxRunningJobs) + " run at once.",
                    {{"type", "object"}, {"properties", json::object()}},
                    /*concurrency_safe=*/true,
                    core::AccessKind::kNone}),
        jobs_(std::move(jobs)) {}

  core::ToolOutput execute(const json& /*args*/, std::stop_token /*stop*/,
                           const core::ToolContext& /*context*/) override {
    return core::ToolOutput{describe_job_list(jobs_->list())};
  }

  std::optional<std::string> describe_result(const json&,
                                             const core::ToolResult& result) const override {
    const std::string text = core::content_text(result.content, "");
    std::size_t count = 0;
    for (std::size_t at = 0; (at = text.find("- job ", at)) != std::string::npos; ++at) ++count;
    return std::to_string(count) + (count == 1 ? " job" : " jobs");
  }

 private:
  std::shared_ptr<process::JobTable> jobs_;
};

}  // namespace

core::ToolPtr make_job_output_tool(std::shared_ptr<process::JobTable> jobs) {
  return std::make_shared<JobOutputTool>(std::move(jobs));
}
core::ToolPtr make_job_kill_tool(std::shared_ptr<process::JobTable> jobs) {
  return std::make_shared<JobKillTool>(std::move(jobs));
}
core::ToolPtr make_job_list_tool(std::shared_ptr<process::JobTable> jobs) {
  return std::make_shared<JobListTool>(std::move(jobs));
}

std::vector<core::ToolPtr> make_job_tools(const std::shared_ptr<process::JobTable>& jobs) {
  return {make_job_output_tool(jobs), make_job_kill_tool(jobs), make_job_list_tool(jobs)};
}

std::string job_started_text(const process::JobSnapshot& job, JobOrigin origin) {
  const std::string id = std::to_string(job.id);
  const std::string log = job.log.string() + " (the first " +
                          util::format_count(process::kMaxLogBytes) + " bytes are kept)";
  const std::string how_to_use =
      "Read what it prints with job_output (id " + id +
      "; wait_s to wait for more) and end it with job_kill; you are told at your next turn "
      "when it finishes. nib ends it when nib exits.";
  if (origin == JobOrigin::kMovedByUser) {
    return "job " + id +
           ": the user moved this command into the background (Ctrl+B) while it ran; it runs "
           "on as job " +
           id + ", pid " + std::to_string(job.pid) +
           ", and no timeout applies to it any more. What it prints from now on (stdout and "
           "stderr together, cleaned of terminal control sequences) goes to " +
           log + "; what it printed before is below. " + how_to_use;
  }
  return "job " + id + " started in the background, pid " + std::to_string(job.pid) +
         ". Its output (stdout and stderr together, cleaned of terminal control sequences) "
         "goes to " +
         log + ". " + how_to_use;
}

}  // namespace nib::tools
