// The job tools as the model uses them: bash with run_in_background, then job_output, job_kill
// and job_list on the same table.

#include "tools/job_tools.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "process/command_registry.hpp"
#include "process/job_test_util.hpp"
#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "tools/builtin.hpp"
#include "tools/limits.hpp"

namespace nib::tools {
namespace {

using nlohmann::json;
using testing::contains;

class JobToolsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(process::become_subreaper()); }
  void TearDown() override {
    tools_.clear();
    jobs_.reset();
    process::kill_all_descendants();
    process::forget_all_commands();
  }

  core::ToolOutput call(const std::string& name, const json& args) {
    for (const auto& tool : tools_) {
      if (tool->name() == name) return tool->execute(args, {}, {"call_1", dir_.path(), {}});
    }
    ADD_FAILURE() << "no tool " << name;
    return {};
  }

  testing::JobScratch scratch_;
  testing::TempDir& dir_ = scratch_.dir;
  core::PendingNotices& notices_ = scratch_.notices;
  std::shared_ptr<process::JobTable> jobs_ =
      std::make_shared<process::JobTable>(scratch_.options());
  std::vector<core::ToolPtr> tools_ = builtin_tools({.jobs = jobs_});
};

TEST_F(JobToolsTest, BashStartsAJobAndJobOutputReadsItUntilItsEnd) {
  const auto gate = dir_.path() / "gate";
  testing::make_fifo(gate);
  const auto started =
      call("bash", {{"command", "echo ready; cat " + gate.string()}, {"run_in_background", true}});
  ASSERT_FALSE(started.is_error) << started.output;
  EXPECT_TRUE(contains(started.output, "job 1 started in the background, pid ")) << started.output;
  EXPECT_TRUE(contains(started.output, (dir_.path() / "logs").string())) << started.output;

  const auto first = call("job_output", {{"id", 1}, {"wait_s", 60}});
  EXPECT_TRUE(contains(first.output, "Job 1 (`echo ready; cat ")) << first.output;
  EXPECT_TRUE(contains(first.output, "running for")) << first.output;
  EXPECT_TRUE(contains(first.output, "\nready\n")) << first.output;

  std::thread writer([&] { std::ofstream(gate) << "done\n"; });
  std::string seen;
  core::ToolOutput last;
  while (!contains(last.output, "exited with status 0")) {
    last = call("job_output", {{"id", 1}, {"wait_s", 60}});
    seen += last.output;
  }
  writer.join();
  EXPECT_TRUE(contains(seen, "\ndone\n")) << seen;
  EXPECT_TRUE(notices_.take_all().empty()) << "the model saw the end itself: no notice";
}

TEST_F(JobToolsTest, AnEndTheModelHasNotSeenStaysANotice) {
  call("bash", {{"command", "echo bye"}, {"run_in_background", true}});
  jobs_->find(1)->wait_finished({});
  const auto notices = notices_.take_all();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_TRUE(contains(notices[0],
                       "Background job 1 (`echo bye`) has finished: exited with "
                       "status 0"))
      << notices[0];
}

TEST_F(JobToolsTest, JobKillEndsTheJobAndSaysHow) {
  call("bash", {{"command", "exec sleep 1000"}, {"run_in_background", true}});
  const auto killed = call("job_kill", {{"id", 1}});
  ASSERT_FALSE(killed.is_error) << killed.output;
  EXPECT_TRUE(contains(killed.output, "killed by nib (job_kill)")) << killed.output;
  EXPECT_TRUE(notices_.take_all().empty());
  const auto again = call("job_kill", {{"id", 1}});
  EXPECT_TRUE(contains(again.output, "It had already finished.")) << again.output;
}

TEST_F(JobToolsTest, ABackgroundJobBeyondTheLimitIsRefusedWithTheRunningOnesListed) {
  call("bash", {{"command", "echo finished-early"}, {"run_in_background", true}});
  jobs_->find(1)->wait_finished({});
  for (std::size_t i = 0; i < process::kMaxRunningJobs; ++i) {
    ASSERT_FALSE(
        call("bash", {{"command", "exec sleep 1000"}, {"run_in_background", true}}).is_error);
  }
  const auto refused = call("bash", {{"command", "echo seventeen"}, {"run_in_background", true}});
  EXPECT_TRUE(refused.is_error);
  EXPECT_TRUE(contains(refused.output, "16 background jobs are running")) << refused.output;
  EXPECT_TRUE(contains(refused.output, "End one you no longer need with job_kill"))
      << refused.output;
  EXPECT_TRUE(contains(refused.output, "- job 17 (`exec sleep 1000`)")) << refused.output;
  EXPECT_FALSE(contains(refused.output, "finished-early")) << "only the running ones";
}

TEST_F(JobToolsTest, JobListShowsEachJobWithItsState) {
  EXPECT_EQ(call("job_list", json::object()).output, "No background jobs.");
  call("bash", {{"command", "exec sleep 1000"}, {"run_in_background", true}});
  const auto listed = call("job_list", json::object());
  EXPECT_TRUE(contains(listed.output, "- job 1 (`exec sleep 1000`), pid ")) << listed.output;
  EXPECT_TRUE(contains(listed.output, ": running for ")) << listed.output;
}

TEST_F(JobToolsTest, AnUnknownJobIsAnErrorThatListsTheKnownOnes) {
  const auto missing = call("job_output", {{"id", 7}});
  EXPECT_TRUE(missing.is_error);
  EXPECT_TRUE(contains(missing.output, "there is no background job 7")) << missing.output;
}

TEST_F(JobToolsTest, ATimeoutDoesNotApplyToABackgroundJob) {
  const auto refused =
      call("bash", {{"command", "sleep 1"}, {"run_in_background", true}, {"timeout", 5}});
  EXPECT_TRUE(refused.is_error);
  EXPECT_TRUE(contains(refused.output, "job_kill")) << refused.output;
}

TEST_F(JobToolsTest, DescriptionsQuoteTheRealLimitsAndBashOffersBackgroundOnlyWithJobs) {
  const auto find = [&](const std::string& name) {
    for (const auto& tool : tools_) {
      if (tool->name() == name) return tool;
    }
    return core::ToolPtr();
  };
  EXPECT_TRUE(contains(find("job_output")->spec().description,
                       "at most " + std::to_string(kMaxJobWait.count())));
  EXPECT_TRUE(contains(find("job_list")->spec().description,
                       "At most " + std::to_string(process::kMaxRunningJobs) + " run at once"));
  EXPECT_TRUE(find("bash")->spec().parameters["properties"].contains("run_in_background"));
  for (const auto& tool : builtin_tools()) {
    EXPECT_NE(tool->name(), "job_output") << "no job tools without a job table";
    if (tool->name() == "bash") {
      EXPECT_FALSE(tool->spec().parameters["properties"].contains("run_in_background"));
    }
  }
  EXPECT_EQ(find("job_output")->describe_call({{"id", 3}, {"wait_s", 10}}),
            "job 3, waiting up to 10 s");
  EXPECT_EQ(find("job_kill")->describe_call({{"id", 3}}), "job 3");
}

}  // namespace
}  // namespace nib::tools
