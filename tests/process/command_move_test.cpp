// Moving a running foreground bash call into the background (Ctrl+B; command_runner.hpp and
// job_table.hpp): the call returns at once with its job, the command runs on as that job, and
// no output is lost or read twice. Every test runs unconfined and in the sandbox
// (sandbox_modes.hpp), gates on FIFOs instead of sleeping, and leaves no process behind.

#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <set>
#include <string>

#include "process/command_registry.hpp"
#include "process/job_table.hpp"
#include "process/job_test_util.hpp"
#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "support/text_match.hpp"
#include "tools/bash.hpp"
#include "tools/limits.hpp"
#include "tools/sandbox_modes.hpp"

namespace nib::process {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using testing::contains;

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

class CommandMoveTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { ASSERT_TRUE(become_subreaper()); }
  void TearDown() override {
    bash_.reset();
    jobs_.reset();
    kill_all_descendants();
    forget_all_commands();
  }

  bool sandboxed() const { return GetParam(); }

  // Runs bash with `args` on a thread of its own, as the scheduler would.
  std::future<core::ToolOutput> call(json args, std::stop_token stop = {}) {
    return std::async(std::launch::async, [this, args = std::move(args), stop] {
      return bash_->execute(args, stop, {"call_1", dir_.path()});
    });
  }
  std::filesystem::path fifo(const std::string& name) const {
    const auto path = dir_.path() / name;
    testing::make_fifo(path);
    return path;
  }
  // A command that prints `before` to both streams, says "ready" on the FIFO `ready`, waits
  // for the FIFO `gate`, then prints `after` to both streams and exits with `status`.
  static std::string gated(const std::filesystem::path& ready, const std::filesystem::path& gate,
                           int status = 0) {
    return "echo out-before; echo err-before >&2; echo ready > " + ready.string() + "; cat " +
           gate.string() + " > /dev/null; echo out-after; echo err-after >&2; exit " +
           std::to_string(status);
  }
  static void open_gate(const std::filesystem::path& gate) { std::ofstream(gate) << "go\n"; }

  // A bash call of gated(...) (with `extra` arguments), once it has printed `before`.
  struct RunningCall {
    std::future<core::ToolOutput> result;
    std::filesystem::path gate;
  };
  RunningCall start_gated(const std::string& name, int status, json extra = json::object(),
                          std::stop_token stop = {}) {
    const auto ready = fifo("ready-" + name);
    RunningCall running{.gate = fifo("gate-" + name)};
    extra["command"] = gated(ready, running.gate, status);
    running.result = call(std::move(extra), std::move(stop));
    EXPECT_EQ(testing::read_fifo_line(ready), "ready");
    return running;
  }

  // The registry's entries of this nib, their text joined.
  std::string registry_text() const {
    std::string text;
    const auto dir = scratch_.runtime.path() / "nib" / "commands";
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() == ".cmd") text += testing::file_contents(entry.path());
    }
    return text;
  }

  testing::JobScratch scratch_;
  testing::TempDir& dir_ = scratch_.dir;
  testing::TempDir cache_;
  std::shared_ptr<const CommandLauncher> sandbox_ =
      sandboxed() ? testing::test_sandbox(dir_.path(), cache_.path()) : nullptr;
  std::shared_ptr<JobTable> jobs_ = std::make_shared<JobTable>(scratch_.options());
  core::ToolPtr bash_ = tools::make_bash_tool({.launcher = sandbox_, .jobs = jobs_});
};

INSTANTIATE_TEST_SUITE_P(Confinement, CommandMoveTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Sandboxed" : "Unconfined";
                         });

TEST_P(CommandMoveTest, OutputBeforeTheMoveIsInTheResultAndAfterItInTheJobsLogEachOnce) {
  auto [result, gate] = start_gated("a", 3);
  const MoveOutcome moved = jobs_->move_foreground_to_background();
  EXPECT_EQ(moved.moving, 1u);
  EXPECT_EQ(moved.refused, 0u);
  const core::ToolOutput output = result.get();
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_TRUE(contains(output.output, "job 1: the user moved this command into the background"))
      << output.output;
  EXPECT_TRUE(contains(output.output, (dir_.path() / "logs").string())) << "its log";
  EXPECT_TRUE(contains(output.output,
                       "Output before the move:\n[stdout]\nout-before\n[stderr]\n"
                       "err-before\n"))
      << output.output;
  EXPECT_FALSE(contains(output.output, "after")) << output.output;
  EXPECT_TRUE(jobs_->foreground_starts().empty()) << "it is a job now";

  const auto job = jobs_->find(1);
  ASSERT_TRUE(job);
  EXPECT_EQ(job->snapshot().status.end, JobEnd::kRunning);
  EXPECT_EQ(job->snapshot().pid, std::stoi(output.output.substr(output.output.find("pid ") + 4)));
  EXPECT_EQ(jobs_->running(), 1u);
  open_gate(gate);
  job->wait_finished({});
  const JobSnapshot done = job->snapshot();
  EXPECT_EQ(done.status.end, JobEnd::kExited);
  EXPECT_EQ(done.status.exit_code, 3);
  const std::string log = testing::file_contents(done.log);
  EXPECT_EQ(count_of(log, "out-after\n"), 1u) << log;
  EXPECT_EQ(count_of(log, "err-after\n"), 1u) << log;
  EXPECT_FALSE(contains(log, "before")) << "the result had it: " << log;
  const JobRead read = job->read_new(0ms, {}, kMaxOutputBytes, kMaxOutputLines);
  EXPECT_EQ(read.output.text.size(), log.size()) << "job_output starts at the move";

  const auto notices = scratch_.notices.take_all();
  ASSERT_EQ(notices.size(), 1u) << "its end is told, as for any job";
  EXPECT_TRUE(contains(notices[0], "Background job 1 (`echo out-before;")) << notices[0];
  EXPECT_TRUE(contains(notices[0], "has finished: exited with status 3")) << notices[0];
}

TEST_P(CommandMoveTest, TheRegistryEntryFollowsTheJob) {
  auto [result, gate] = start_gated("a", 0);
  EXPECT_FALSE(contains(registry_text(), "\"job\":")) << registry_text();
  jobs_->move_foreground_to_background();
  ASSERT_FALSE(result.get().is_error);
  EXPECT_TRUE(contains(registry_text(), "\"job\":1")) << registry_text();
  const auto job = jobs_->find(1);
  ASSERT_TRUE(job);
  open_gate(gate);
  job->wait_finished({});
  EXPECT_TRUE(job->wait_cleaned_up(kDrainCap));
  EXPECT_EQ(registry_text(), "") << "gone with the job";
}

TEST_P(CommandMoveTest, AnAbortAfterTheMoveNoLongerReachesTheCommandNorDoesItsTimeout) {
  std::stop_source stop;
  auto [result, gate] = start_gated("a", 5, {{"timeout", 3600}}, stop.get_token());
  jobs_->move_foreground_to_background();
  const core::ToolOutput output = result.get();
  EXPECT_TRUE(contains(output.output, "no timeout applies to it any more")) << output.output;
  stop.request_stop();  // Esc
  const auto job = jobs_->find(1);
  ASSERT_TRUE(job);
  open_gate(gate);
  job->wait_finished({});
  EXPECT_EQ(job->snapshot().status.end, JobEnd::kExited) << "it was not killed";
  EXPECT_EQ(job->snapshot().status.exit_code, 5);
}

TEST_P(CommandMoveTest, EveryRunningCallMovesAndEachBecomesAJob) {
  RunningCall a = start_gated("a", 1);
  RunningCall b = start_gated("b", 2);
  EXPECT_EQ(jobs_->foreground_starts().size(), 2u);
  EXPECT_EQ(jobs_->move_foreground_to_background().moving, 2u);
  const std::string first = a.result.get().output;
  const std::string second = b.result.get().output;
  EXPECT_TRUE(contains(first + second, "job 1: ")) << first << second;
  EXPECT_TRUE(contains(first + second, "job 2: ")) << first << second;
  EXPECT_EQ(jobs_->running(), 2u);
  open_gate(a.gate);
  open_gate(b.gate);
  for (int id : {1, 2}) {
    const auto job = jobs_->find(id);
    ASSERT_TRUE(job);
    job->wait_finished({});
    EXPECT_EQ(job->snapshot().status.end, JobEnd::kExited);
  }
  std::set<int> codes;
  for (const JobSnapshot& job : jobs_->list()) codes.insert(job.status.exit_code);
  EXPECT_EQ(codes, (std::set<int>{1, 2}));
}

TEST_P(CommandMoveTest, AtTheJobLimitTheCallStaysInTheForeground) {
  for (std::size_t i = 0; i < kMaxRunningJobs; ++i) {
    ASSERT_TRUE(jobs_->start({.command = "exec sleep 1000", .cwd = dir_.path()}).ok());
  }
  auto [result, gate] = start_gated("a", 0);
  const MoveOutcome moved = jobs_->move_foreground_to_background();
  EXPECT_EQ(moved.moving, 0u);
  EXPECT_EQ(moved.refused, 1u);
  EXPECT_EQ(jobs_->foreground_starts().size(), 1u) << "still movable once a place is free";
  open_gate(gate);
  const core::ToolOutput output = result.get();
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(output.exit_code, 0);
  EXPECT_EQ(output.output, "[stdout]\nout-before\nout-after\n[stderr]\nerr-before\nerr-after\n");
  EXPECT_EQ(jobs_->list().size(), kMaxRunningJobs);
}

TEST_P(CommandMoveTest, ACallThatHasEndedIsNotMovable) {
  const core::ToolOutput output = call({{"command", "echo quick"}}).get();
  EXPECT_EQ(output.output, "quick\n");
  EXPECT_TRUE(jobs_->foreground_starts().empty());
  EXPECT_EQ(jobs_->move_foreground_to_background().moving, 0u);
  EXPECT_TRUE(jobs_->list().empty());
}

TEST(JobTableMove, AMoveRequestedForACommandThatEndsFirstGivesItsPlaceBack) {
  ASSERT_TRUE(become_subreaper());
  testing::JobScratch scratch;
  JobTable jobs(scratch.options());
  auto movable = jobs.enroll("make", std::chrono::steady_clock::now());
  ASSERT_TRUE(movable);
  EXPECT_EQ(jobs.foreground_starts().size(), 1u);
  EXPECT_EQ(jobs.move_foreground_to_background().moving, 1u);
  EXPECT_TRUE(movable->move_requested());
  EXPECT_TRUE(jobs.foreground_starts().empty()) << "asked once";
  EXPECT_EQ(jobs.move_foreground_to_background().moving, 0u);
  movable.reset();  // its command ended before its runner saw the request
  for (std::size_t i = 0; i < kMaxRunningJobs; ++i) {
    EXPECT_TRUE(jobs.start({.command = "exec sleep 1000", .cwd = scratch.dir.path()}).ok()) << i;
  }
}

}  // namespace
}  // namespace nib::process
